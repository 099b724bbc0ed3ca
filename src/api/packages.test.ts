import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { packageDetailSchema, packageFilePath, protectionRuleFormSchema, protectionRuleInput, packageFileSchema, packageListQuery, packagePipelineSchema, packageSchema, protectionRuleSchema } from './packages.ts';

// Responses shaped as the platform's API docs show them (Packages API, Protected packages API).

describe('package schemas', () => {
  it('reads a list item with pipelines, tag objects and both links', () => {
    const item = z.parse(packageSchema, {
      id: 2,
      name: '@foo/bar',
      version: '1.0.3',
      package_type: 'npm',
      status: 'default',
      _links: { web_path: '/namespace1/project1/-/packages/2', delete_api_path: '/namespace1/project1/-/packages/2' },
      created_at: '2019-11-27T03:37:38.711Z',
      pipelines: [
        {
          id: 123, status: 'pending', ref: 'new-pipeline', sha: 'a91957a858320c0e17f3a0eca7cfacbff50ea29a', web_url: 'https://example.com/foo/bar/pipelines/47',
          created_at: '2016-08-11T11:28:34.085Z', updated_at: '2016-08-11T11:32:35.169Z', user: { name: 'Administrator', avatar_url: 'https://www.gravatar.com/avatar/e64c7d89f26bd1972efa854d13d7dd61?s=80&d=identicon' },
        },
      ],
      tags: [{ id: 1, package_id: 2, name: 'latest', created_at: '2019-11-27T03:37:38.711Z', updated_at: '2019-11-27T03:37:38.711Z' }],
    });
    expect(item).toMatchObject({ id: 2, tags: ['latest'], _links: { delete_api_path: '/namespace1/project1/-/packages/2' } });
    expect(item.pipelines[0].user?.name).toBe('Administrator');
  });

  it('reads a package without pipelines, links or tags, a null version and no status', () => {
    const item = z.parse(packageSchema, { id: 3, name: 'com/mycompany/my-app', version: null, package_type: 'maven', created_at: '2019-11-27T03:37:38.711Z', _links: { web_path: '/a/b/-/packages/3' } });
    expect(item).toMatchObject({ version: null, status: 'default', tags: [], pipelines: [], _links: { web_path: '/a/b/-/packages/3', delete_api_path: null } });
  });

  it('reads the group list item with its project path', () => {
    expect(z.parse(packageSchema, { id: 1, name: 'x', version: '1', package_type: 'conan', conan_package_name: 'x', project_id: 9, project_path: 'acme/app' }).project_path).toBe('acme/app');
  });

  it('reads a single package with versions and last download', () => {
    const detail = z.parse(packageDetailSchema, {
      id: 1, name: 'com/mycompany/my-app', version: '1.0-SNAPSHOT', package_type: 'maven', _links: { web_path: '/p/-/packages/1' },
      created_at: '2019-11-27T03:37:38.711Z', last_downloaded_at: '2022-09-07T07:51:50.504Z', pipelines: [], tags: [],
      versions: [{ id: 2, version: '2.0-SNAPSHOT', created_at: '2020-04-28T04:42:11.573Z', pipelines: [{ id: 234, status: 'pending', ref: 'new-pipeline', sha: 'a9', web_url: 'https://e/p/47' }] }],
    });
    expect(detail.versions).toHaveLength(1);
    expect(detail.versions[0].pipelines[0].id).toBe(234);
    expect(detail.last_downloaded_at).toBe('2022-09-07T07:51:50.504Z');
  });

  it('reads package files with their checksums and pipelines', () => {
    const file = z.parse(packageFileSchema, {
      id: 25, package_id: 4, created_at: '2018-11-07T15:25:52.199Z', file_name: 'my-app-1.5-20181107.152550-1.jar', size: 2421,
      file_md5: '58e6a45a629910c6ff99145a688971ac', file_sha1: 'ebd193463d3915d7e22219f52740056dfd26cbfe', file_sha256: 'a903393463d3915d7e22219f52740056dfd26cbfeff321b',
      pipelines: [{ id: 123, status: 'pending', ref: 'new-pipeline', sha: 'a91957a858320c0e17f3a0eca7cfacbff50ea29a', user: { name: 'Administrator', avatar_url: null } }],
    });
    expect(file).toMatchObject({ file_name: 'my-app-1.5-20181107.152550-1.jar', size: 2421 });
  });

  it('reads a package pipeline and a protection rule', () => {
    expect(z.parse(packagePipelineSchema, { id: 1, iid: 1, project_id: 9, sha: '2b6127f6bb6f475c4e81afcc2251e3f941e554f9', ref: 'mytag', status: 'failed', source: 'push', created_at: '2023-02-01T12:19:21.895Z', updated_at: '2023-02-01T14:00:05.922Z', web_url: 'http://gdk.test:3001/feature-testing/composer-repository/-/pipelines/1', user: { id: 1, username: 'root', name: 'Administrator', state: 'active', avatar_url: null, web_url: 'http://gdk.test:3001/root' } }).status).toBe('failed');
    expect(z.parse(protectionRuleSchema, { id: 1, project_id: 7, package_name_pattern: '@flightjs/flight-package-0', package_type: 'npm', minimum_access_level_for_push: 'maintainer' })).toMatchObject({ minimum_access_level_for_push: 'maintainer' });
  });

  it('refuses an item without a name, so the screen shows the error', () => {
    expect(z.safeParse(packageSchema, { id: 1, package_type: 'npm' }).success).toBe(false);
  });
});

describe('package list params', () => {
  const base = { page: 1, per_page: 20 };
  it('drops empty filters and keeps exclude_subgroups for groups only', () => {
    expect(packageListQuery({ project: 1 }, { ...base, package_name: '', package_type: 'npm', include_versionless: false, exclude_subgroups: true })).toEqual({ ...base, package_type: 'npm' });
    expect(packageListQuery({ group: 1 }, { ...base, exclude_subgroups: true, order_by: 'project_path', sort: 'desc' })).toEqual({ ...base, exclude_subgroups: true, order_by: 'project_path', sort: 'desc' });
  });
});

describe('package file download paths', () => {
  const file = { file_name: 'file name?.txt', file_sha256: 'abc' };
  it('encodes each segment of the generic path', () => {
    expect(packageFilePath(5, { name: 'my pkg', version: '1.0/2', package_type: 'generic' }, file)).toBe('/projects/5/packages/generic/my%20pkg/1.0%2F2/file%20name%3F.txt');
  });
  it('keeps the scope of an npm name as a path segment', () => {
    expect(packageFilePath(5, { name: '@acme/ui', version: '1.0.0', package_type: 'npm' }, { file_name: 'ui-1.0.0.tgz', file_sha256: null })).toBe('/projects/5/packages/npm/%40acme/ui/-/ui-1.0.0.tgz');
    expect(packageFilePath(5, { name: '@acme/ui', version: '1.0.0', package_type: 'npm' }, { file_name: '@acme/ui-1.0.0.tgz', file_sha256: null })).toBe('/projects/5/packages/npm/%40acme/ui/-/%40acme/ui-1.0.0.tgz');
  });
  it('names maven, pypi and nuget paths and none for conan', () => {
    expect(packageFilePath(5, { name: 'com/acme/app', version: '1.0', package_type: 'maven' }, { file_name: 'app-1.0.jar', file_sha256: null })).toBe('/projects/5/packages/maven/com/acme/app/1.0/app-1.0.jar');
    expect(packageFilePath(5, { name: 'acme', version: '1.0', package_type: 'pypi' }, { file_name: 'acme-1.0.tar.gz', file_sha256: 'ff' })).toBe('/projects/5/packages/pypi/files/ff/acme-1.0.tar.gz');
    expect(packageFilePath(5, { name: 'Acme.Lib', version: '1.0.0', package_type: 'nuget' }, { file_name: 'acme.lib.1.0.0.nupkg', file_sha256: null })).toBe('/projects/5/packages/nuget/download/acme.lib/1.0.0/acme.lib.1.0.0.nupkg');
    expect(packageFilePath(5, { name: 'x', version: '1', package_type: 'conan' }, file)).toBeNull();
  });
});

describe('the protection rule form', () => {
  const valid = { package_name_pattern: ' @acme/ui-* ', package_type: 'npm', minimum_access_level_for_push: '', minimum_access_level_for_delete: 'owner' };
  it('trims the pattern and sends no level as null', () => {
    const values = z.parse(protectionRuleFormSchema, valid);
    expect(protectionRuleInput(values)).toEqual({ package_name_pattern: '@acme/ui-*', package_type: 'npm', minimum_access_level_for_push: null, minimum_access_level_for_delete: 'owner' });
  });
  it('refuses spaces, no level at all, and a Maintainer minimum for delete', () => {
    const issues = (value: object) => z.safeParse(protectionRuleFormSchema, { ...valid, ...value }).error?.issues.map((issue) => issue.message) ?? [];
    expect(issues({ package_name_pattern: 'a b' })).toEqual(['A package name, with * as wildcard: no spaces.']);
    expect(issues({ minimum_access_level_for_delete: '' })).toEqual(['Choose a minimum role for push, for delete, or both.']);
    expect(issues({ minimum_access_level_for_delete: 'maintainer' })).toHaveLength(1);
  });
});
