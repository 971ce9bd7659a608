/**
 * apimachinery's field.Path (staging/src/k8s.io/apimachinery/pkg/util/validation/field/path.go): the
 * field a validation error names, printed as kube prints it. `spec.containers[2].name`; a map key is
 * bracketed without quotes (`metadata.labels[app]`); a root with an empty name prints `[]`, which is
 * what the ConfigMap size error shows.
 */
export class Path {
  private constructor(
    private readonly parent: Path | undefined,
    /** The field's name, or '' when this element is a subscript. */
    private readonly name: string,
    private readonly subscript: string,
  ) {}

  /** `field.NewPath(name, moreNames...)`. */
  static of(name: string, ...more: string[]): Path {
    let path = new Path(undefined, name, '');
    for (const next of more) path = new Path(path, next, '');
    return path;
  }

  /** `p.Child(name, moreNames...)`. */
  child(name: string, ...more: string[]): Path {
    let path = new Path(this, name, '');
    for (const next of more) path = new Path(path, next, '');
    return path;
  }

  /** `p.Index(i)`. */
  index(index: number): Path {
    return new Path(this, '', String(index));
  }

  /** `p.Key(key)`. */
  key(key: string): Path {
    return new Path(this, '', key);
  }

  /** `p.Root()`. */
  root(): Path {
    let path: Path = this;
    while (path.parent) path = path.parent;
    return path;
  }

  /** `p.String()`. */
  toString(): string {
    const elements: Path[] = [];
    for (let path: Path | undefined = this; path; path = path.parent) elements.unshift(path);
    let text = '';
    for (const element of elements) {
      if (element.parent && element.name.length > 0) text += '.';
      text += element.name.length > 0 ? element.name : `[${element.subscript}]`;
    }
    return text;
  }
}
