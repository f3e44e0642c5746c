// A release's tasks as the scheduler resolves them (pipeline/render.ts
// resolveTask), and the contexts that render them: for tests of rendering
// and of tasks sent across threads.
import { planSite } from '../../generator/build.ts';
import { formatContext, resolveTask } from '../../generator/pipeline/render.ts';

export function plannedTasks(dataDir: string) {
  const { plan } = planSite({ dataDir, outDir: '/nonexistent-out', baseUrl: 'http://localhost:8080' });
  const contexts = plan.parts.map((p) => formatContext(p.release, p.layout));
  return { wire: plan.tasks.map((t) => resolveTask(t!)), contexts };
}
