/**
 * How to install a package with its own client, as the platform's package page tells it. The
 * token is always the placeholder: a command shown on screen (and copied into shell histories)
 * never carries the caller's token.
 */

export const TOKEN_PLACEHOLDER = '<your_access_token>';

export interface InstallStep {
  /** What the step is, e.g. "Install", "Registry setup (.npmrc)". */
  title: string;
  /** The text to copy: a command or a file's lines. */
  text: string;
}

export interface InstallContext {
  /** The instance's origin, e.g. `https://gitlab.example.com`. */
  instanceUrl: string;
  projectId: number;
  /** The project's namespace: composer's registry is the group's; terraform names the namespace. */
  namespace?: { id: number; full_path: string };
}

interface InstallPackage {
  name: string;
  version?: string | null;
  package_type: string;
  conan_package_name?: string | null;
}

/** A maven package's name is `group/path/artifact`: the dots of the group id became slashes. */
export function mavenCoordinates(name: string): { groupId: string; artifactId: string } {
  const parts = name.split('/').filter(Boolean);
  const artifactId = parts.pop() ?? name;
  return { groupId: parts.join('.'), artifactId };
}

const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** One shell word: quoted when it has anything a shell would read. */
const shellWord = (text: string) => (/^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);

/** The steps for a package's type; an empty list for a type the platform gives no instructions for. */
export function installSteps(pkg: InstallPackage, context: InstallContext): InstallStep[] {
  const base = context.instanceUrl.replace(/\/+$/, '');
  const host = base.replace(/^https?:\/\//, '');
  const projectApi = `${base}/api/v4/projects/${context.projectId}/packages`;
  const version = pkg.version ?? '';
  const at = (separator: string) => (version ? `${separator}${version}` : '');
  switch (pkg.package_type) {
    case 'npm': {
      const scope = pkg.name.startsWith('@') ? pkg.name.split('/')[0] : null;
      return [
        { title: 'Install with npm', text: `npm install ${shellWord(`${pkg.name}${at('@')}`)}` },
        { title: 'Install with yarn', text: `yarn add ${shellWord(`${pkg.name}${at('@')}`)}` },
        {
          title: 'Registry setup (.npmrc)',
          text: `${scope ? `${scope}:registry` : 'registry'}=${projectApi}/npm/\n//${host}/api/v4/projects/${context.projectId}/packages/npm/:_authToken=${TOKEN_PLACEHOLDER}`,
        },
      ];
    }
    case 'maven': {
      const { groupId, artifactId } = mavenCoordinates(pkg.name);
      return [
        {
          title: 'Dependency (pom.xml)',
          text: `<dependency>\n  <groupId>${xmlText(groupId)}</groupId>\n  <artifactId>${xmlText(artifactId)}</artifactId>\n  <version>${xmlText(version)}</version>\n</dependency>`,
        },
        { title: 'Install with Maven', text: `mvn dependency:get -Dartifact=${shellWord(`${groupId}:${artifactId}:${version}`)}` },
        {
          title: 'Registry setup (pom.xml)',
          text: `<repositories>\n  <repository>\n    <id>gitlab-maven</id>\n    <url>${projectApi}/maven</url>\n  </repository>\n</repositories>`,
        },
        {
          title: 'Authentication (settings.xml)',
          text: `<settings>\n  <servers>\n    <server>\n      <id>gitlab-maven</id>\n      <configuration>\n        <httpHeaders>\n          <property>\n            <name>Private-Token</name>\n            <value>${xmlText(TOKEN_PLACEHOLDER)}</value>\n          </property>\n        </httpHeaders>\n      </configuration>\n    </server>\n  </servers>\n</settings>`,
        },
        { title: 'Gradle (Groovy)', text: `implementation '${groupId}:${artifactId}:${version}'` },
        { title: 'Gradle (Kotlin)', text: `implementation("${groupId}:${artifactId}:${version}")` },
      ];
    }
    case 'pypi':
      return [
        { title: 'Install with pip', text: `pip install --index-url https://__token__:${TOKEN_PLACEHOLDER}@${host}/api/v4/projects/${context.projectId}/packages/pypi/simple ${shellWord(`${pkg.name}${at('==')}`)}` },
        {
          title: 'Registry setup (~/.pypirc)',
          text: `[gitlab]\nrepository = ${projectApi}/pypi\nusername = __token__\npassword = ${TOKEN_PLACEHOLDER}`,
        },
      ];
    case 'conan':
      // the platform's `name` of a conan package is its recipe: name/version@user/channel
      return [
        { title: 'Install with Conan', text: `conan install ${shellWord(pkg.name)} --remote=gitlab` },
        { title: 'Add the remote', text: `conan remote add gitlab ${projectApi}/conan` },
        { title: 'Authenticate', text: `conan user <your_username> -r gitlab -p ${TOKEN_PLACEHOLDER}` },
      ];
    case 'nuget':
      return [
        { title: 'Install with NuGet', text: `nuget install ${shellWord(pkg.name)}${version ? ` -Version ${shellWord(version)}` : ''} -Source "GitLab"` },
        { title: 'Add the source', text: `nuget source Add -Name "GitLab" -Source "${projectApi}/nuget/index.json" -UserName <your_username> -Password ${TOKEN_PLACEHOLDER}` },
      ];
    case 'helm':
      return [
        { title: 'Add the repository', text: `helm repo add --username <your_username> --password ${TOKEN_PLACEHOLDER} gitlab ${projectApi}/helm/stable` },
        { title: 'Install with Helm', text: `helm install my-release ${shellWord(`gitlab/${pkg.name}`)}${version ? ` --version ${shellWord(version)}` : ''}` },
      ];
    case 'composer': {
      const groupId = context.namespace?.id;
      if (groupId === undefined) return [{ title: 'Install with Composer', text: `composer req ${shellWord(`${pkg.name}${at(':')}`)}` }];
      return [
        {
          title: 'Registry setup',
          text: `composer config repositories.${groupId} '{"type": "composer", "url": "${base}/api/v4/group/${groupId}/-/packages/composer/packages.json"}'`,
        },
        { title: 'Install with Composer', text: `composer req ${shellWord(`${pkg.name}${at(':')}`)}` },
        { title: 'Authentication', text: `composer config gitlab-token.${host} <your_username> ${TOKEN_PLACEHOLDER}` },
      ];
    }
    case 'terraform_module': {
      // the platform names a module `name/system`; its source is host/namespace/name/system
      const namespace = context.namespace?.full_path.split('/')[0] ?? '<namespace>';
      const [moduleName, system = '<system>'] = pkg.name.split('/');
      return [
        { title: 'Module (main.tf)', text: `module "${moduleName}" {\n  source = "${host}/${namespace}/${moduleName}/${system}"\n  version = "${version}"\n}` },
        { title: 'Credentials (~/.terraformrc)', text: `credentials "${host}" {\n  token = "${TOKEN_PLACEHOLDER}"\n}` },
      ];
    }
    case 'golang':
      return [
        { title: 'Module proxy', text: `export GOPROXY=${projectApi}/go,https://proxy.golang.org,direct` },
        { title: 'Authentication (~/.netrc)', text: `machine ${host} login <your_username> password ${TOKEN_PLACEHOLDER}` },
        { title: 'Install with Go', text: `go get ${shellWord(`${pkg.name}${at('@')}`)}` },
      ];
    case 'generic':
      return [
        {
          title: 'Download a file with curl',
          text: `curl --header "PRIVATE-TOKEN: ${TOKEN_PLACEHOLDER}" --output <file_name> "${projectApi}/generic/${encodeURIComponent(pkg.name)}/${encodeURIComponent(version)}/<file_name>"`,
        },
        {
          title: 'Publish a file with curl',
          text: `curl --header "PRIVATE-TOKEN: ${TOKEN_PLACEHOLDER}" --upload-file path/to/<file_name> "${projectApi}/generic/${encodeURIComponent(pkg.name)}/${encodeURIComponent(version)}/<file_name>"`,
        },
      ];
    default:
      return [];
  }
}
