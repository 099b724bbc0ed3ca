import { describe, expect, it } from 'vitest';
import { PACKAGE_TYPES } from '../../api/vocabulary.ts';
import { TOKEN_PLACEHOLDER, installSteps, mavenCoordinates } from './install.ts';

const context = { instanceUrl: 'https://gitlab.example.com/', projectId: 7, namespace: { id: 3, full_path: 'acme/platform' } };
const text = (type: string, name: string, version: string | null = '1.2.3') => installSteps({ name, version, package_type: type }, context).map((step) => step.text).join('\n');

describe('install instructions', () => {
  it('npm: the scope registry line of the project and the install of that version', () => {
    const npm = text('npm', '@acme/ui');
    expect(npm).toContain('npm install @acme/ui@1.2.3');
    expect(npm).toContain('@acme:registry=https://gitlab.example.com/api/v4/projects/7/packages/npm/');
    expect(npm).toContain(`//gitlab.example.com/api/v4/projects/7/packages/npm/:_authToken=${TOKEN_PLACEHOLDER}`);
    expect(text('npm', 'left-pad')).toContain('registry=https://gitlab.example.com/api/v4/projects/7/packages/npm/');
  });

  it('maven: the repository and the dependency from the name, XML escaped', () => {
    expect(mavenCoordinates('com/mycompany/my-app')).toEqual({ groupId: 'com.mycompany', artifactId: 'my-app' });
    const maven = text('maven', 'com/mycompany/my-app', '1.0<x>');
    expect(maven).toContain('<groupId>com.mycompany</groupId>\n  <artifactId>my-app</artifactId>\n  <version>1.0&lt;x&gt;</version>');
    expect(maven).toContain('<url>https://gitlab.example.com/api/v4/projects/7/packages/maven</url>');
  });

  it('pypi: pip from the project index with the version pinned', () => {
    expect(text('pypi', 'acme-tools')).toContain(`pip install --index-url https://__token__:${TOKEN_PLACEHOLDER}@gitlab.example.com/api/v4/projects/7/packages/pypi/simple acme-tools==1.2.3`);
  });

  it('quotes names a shell would read', () => {
    expect(text('npm', 'x; rm -rf ~')).toContain(`npm install 'x; rm -rf ~@1.2.3'`);
    expect(text('pypi', "it's")).toContain(`'it'\\''s==1.2.3'`);
  });

  it('every type has steps, none with anything but the placeholder for a token', () => {
    for (const type of PACKAGE_TYPES) {
      const steps = installSteps({ name: 'acme/pkg', version: '1.0.0', package_type: type }, context);
      expect(steps.length, type).toBeGreaterThan(0);
      for (const step of steps) expect(step.text).not.toMatch(/glpat-|PRIVATE-TOKEN: (?!<)/);
    }
    expect(installSteps({ name: 'x', package_type: 'ml_model' }, context)).toEqual([]);
  });

  it('composer: the group registry of the project namespace; terraform: host/namespace/name/system', () => {
    expect(text('composer', 'acme/lib')).toContain('https://gitlab.example.com/api/v4/group/3/-/packages/composer/packages.json');
    expect(text('composer', 'acme/lib')).toContain('composer req acme/lib:1.2.3');
    expect(text('terraform_module', 'vpc/aws')).toContain('source = "gitlab.example.com/acme/vpc/aws"');
  });
});
