/**
 * The image pull policy kube-apiserver defaults from an image reference.
 *
 * Upstream: `pkg/apis/core/v1/defaults.go` (`SetDefaults_Container`, `SetDefaults_Volume` for image
 * volumes) reads the tag that `pkg/util/parsers.ParseImageName` returns and ignores its error. That
 * function parses with `github.com/distribution/reference.ParseNormalizedNamed` (normalize.go,
 * regexp.go, reference.go `Parse`) and validates the digest with `github.com/opencontainers/go-digest`
 * (`Digest.Validate`). Rewritten here from the grammar; no code is shared.
 */

// The reference grammar (distribution/reference regexp.go), as JavaScript patterns. `\w` is ASCII in
// both RE2 and JavaScript without the `u` flag.
const ALPHANUMERIC = '[a-z0-9]+';
const SEPARATOR = '(?:[._]|__|[-]+)';
const PATH_COMPONENT = `${ALPHANUMERIC}(?:${SEPARATOR}${ALPHANUMERIC})*`;
const REMOTE_NAME = `${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN_NAME = `${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*`;
const HOST = `(?:${DOMAIN_NAME}|\\[(?:[a-fA-F0-9:]+)\\])`;
const DOMAIN_AND_PORT = `${HOST}(?::[0-9]+)?`;
const NAME = `(?:${DOMAIN_AND_PORT}/)?${REMOTE_NAME}`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9A-Fa-f]{32,}';

const REFERENCE = new RegExp(`^(${NAME})(?::(${TAG}))?(?:@(${DIGEST}))?$`);
const ANCHORED_NAME = new RegExp(`^(?:(${DOMAIN_AND_PORT})/)?(${REMOTE_NAME})$`);
const IDENTIFIER = /^[a-f0-9]{64}$/;
const REPOSITORY_NAME_TOTAL_LENGTH_MAX = 255;

// go-digest's registered algorithms that kube-apiserver links (crypto/sha256, crypto/sha512): the
// encoded part must be lower-case hex of exactly the hash size.
const DIGEST_HEX_LENGTH: Readonly<Record<string, number>> = { sha256: 64, sha384: 96, sha512: 128 };

/** go-digest `Digest.Validate`: only whether it succeeds matters here. */
function validDigest(digest: string): boolean {
  const colon = digest.indexOf(':');
  if (colon <= 0 || colon + 1 === digest.length) return false;
  const length = DIGEST_HEX_LENGTH[digest.slice(0, colon)];
  if (length === undefined) return false; // unsupported (or malformed) algorithm
  const encoded = digest.slice(colon + 1);
  return encoded.length === length && /^[a-f0-9]+$/.test(encoded);
}

/** normalize.go `splitDockerDomain`: the domain and the remainder, familiar names made canonical. */
function splitDockerDomain(name: string): [string, string] {
  const slash = name.indexOf('/');
  if (slash < 0) return ['docker.io', `library/${name}`];
  const maybeDomain = name.slice(0, slash);
  const rest = name.slice(slash + 1);
  let domain: string;
  let remainder: string;
  if (maybeDomain === 'localhost' || /[.:]/.test(maybeDomain) || maybeDomain.toLowerCase() !== maybeDomain) {
    [domain, remainder] = [maybeDomain, rest];
  } else {
    [domain, remainder] = ['docker.io', name];
  }
  if (domain === 'index.docker.io') domain = 'docker.io';
  if (domain === 'docker.io' && !remainder.includes('/')) remainder = `library/${remainder}`;
  return [domain, remainder];
}

/**
 * The tag `ParseImageName` returns: the reference's tag, `latest` when it has neither tag nor digest,
 * and "" when the reference does not parse (upper-case repository, empty, bad characters or digest).
 */
export function imageTag(image: string): string {
  if (IDENTIFIER.test(image)) return '';
  const [domain, remainder] = splitDockerDomain(image);
  const colon = remainder.indexOf(':');
  const remote = colon < 0 ? remainder : remainder.slice(0, colon);
  if (remote.toLowerCase() !== remote) return '';
  const match = REFERENCE.exec(`${domain}/${remainder}`);
  if (!match) return '';
  const [, name = '', tag = '', digest = ''] = match;
  const path = ANCHORED_NAME.exec(name)?.[2] ?? name;
  if (path.length > REPOSITORY_NAME_TOTAL_LENGTH_MAX) return '';
  if (digest !== '' && !validDigest(digest)) return '';
  return tag === '' && digest === '' ? 'latest' : tag;
}

/** SetDefaults_Container: `Always` for a `latest` tag (or none), else `IfNotPresent`. */
export function pullPolicy(image: string): 'Always' | 'IfNotPresent' {
  return imageTag(image) === 'latest' ? 'Always' : 'IfNotPresent';
}
