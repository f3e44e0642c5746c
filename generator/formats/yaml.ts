// YAML as djangorestframework-yaml writes it (PyYAML): block style, keys
// sorted at every level, sequences not indented under their key, strings
// that look like numbers quoted ('1'), floats as Python prints them.
import yaml from 'js-yaml';
import { pyRepr } from '../dataset/numbers.ts';
import { PyFloat, type Format, type Json } from './types.ts';

// This type replaces js-yaml's float type (same tag), so it must also read
// floats as that one does: the dumper quotes a string exactly when a reader
// would take it for a float ('1.5', '1e3', '.inf'), and a name or annotation
// that looks like a number stays a string.
// (js-yaml 4 exports its types; @types/js-yaml does not declare them.)
const jsYamlFloat = (yaml as unknown as { types: { float: { resolve: (data: string) => boolean; construct: (data: string) => number } } }).types.float;
const pyFloatType = new yaml.Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: jsYamlFloat.resolve,
  construct: jsYamlFloat.construct,
  instanceOf: PyFloat,
  // PyYAML's represent_float: repr(), then ".0" before an exponent without a
  // dot ("1e-05" → "1.0e-05"), which YAML 1.1 would otherwise read as a string.
  represent: (value) => {
    const text = pyRepr((value as PyFloat).value);
    return text.includes('.') || !text.includes('e') ? text : text.replace('e', '.0e');
  },
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
