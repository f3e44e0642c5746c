// A release's tasks as the scheduler resolves them (pipeline/render.ts
// resolveTask: list pages and base ids as what they are built from), the same
// tasks with their resources built (withResources), and the contexts that
// render them: for tests of rendering and of tasks sent across threads.
import { planSite } from '../../generator/build.ts';
import { formatContext, resolveTask, withResources } from '../../generator/pipeline/render.ts';

export function plannedTasks(dataDir: string) {
  const { plan } = planSite({ dataDir, outDir: '/nonexistent-out', baseUrl: 'http://localhost:8080' });
  const contexts = plan.parts.map((p) => formatContext(p.release, p.layout));
  const wire = plan.tasks.map((t) => resolveTask(t!));
  return { wire, built: wire.map(withResources), contexts };
}
