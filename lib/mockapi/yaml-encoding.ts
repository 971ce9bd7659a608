import { yaml } from '../yaml';

/**
 * An object as kube-apiserver's YAML serializer writes it (sigs.k8s.io/yaml JSONToYAML over go-yaml v2): keys
 * sorted, sequences not indented under their key, YAML 1.1 look-alikes (`"n"`, `"720"`, timestamps) quoted.
 */
export function kubeYaml(value: unknown): string {
  const { Document } = yaml();
  const text = new Document(value, { version: '1.1', sortMapEntries: true }).toString({ indentSeq: false, lineWidth: 0 });
  // The yaml package reads a lone "." as a YAML 1.1 float and quotes it; go-yaml does not (managedFields' `.: {}`).
  return text.replace(/^(\s*(?:- )?)"\.":/gm, '$1.:');
}
