// YAML as djangorestframework-yaml writes it (PyYAML): block style, keys
// sorted at every level, sequences not indented under their key, strings
// that look like numbers quoted ('1'), floats as Python prints them.
import yaml from 'js-yaml';
import { pyRepr } from './numbers.ts';
import { PyFloat, type Format, type Json } from './types.ts';

const pyFloatType = new yaml.Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  // Only for writing: never claim a plain scalar when reading, or every string would need quotes.
  resolve: () => false,
  instanceOf: PyFloat,
  represent: (value) => pyRepr((value as PyFloat).value),
});

const schema = yaml.DEFAULT_SCHEMA.extend({ implicit: [pyFloatType] });

export function toYaml(value: Json): string {
  return yaml.dump(value, { schema, sortKeys: true, noArrayIndent: true, lineWidth: -1, noRefs: true });
}

export const yamlFormat: Format = {
  id: 'yaml',
  mediaType: 'application/yaml; charset=utf-8',
  extension: 'yaml',
  render: (resource) => toYaml(resource.body),
};
