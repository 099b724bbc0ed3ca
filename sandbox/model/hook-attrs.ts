import type { Sandbox } from '../context.ts';
import { visibilityRank, type NamespaceRow, type ProjectRow } from './access.ts';
import { groupEntity } from './entities.ts';
import type { RawCommit } from '../git/repository.ts';

/** The project as hook payloads carry it (Project#hook_attrs). */
export function projectHookAttrs(sandbox: Sandbox, project: ProjectRow) {
  const namespace = sandbox.db.prepare('SELECT * FROM namespaces WHERE id = ?').get(project.namespace_id) as NamespaceRow;
  const web = `${sandbox.config.externalUrl}/${project.path_with_namespace}`;
  const ssh = `git@${new URL(sandbox.config.externalUrl).hostname}:${project.path_with_namespace}.git`;
  return {
    id: project.id,
    name: project.name,
    description: project.description,
    web_url: web,
    avatar_url: null,
    git_ssh_url: ssh,
    git_http_url: `${web}.git`,
    namespace: namespace.kind === 'group' ? groupEntity(sandbox, namespace).full_name : namespace.name,
    visibility_level: visibilityRank(project.visibility),
    path_with_namespace: project.path_with_namespace,
    default_branch: project.default_branch,
    ci_config_path: null,
    homepage: web,
    url: ssh,
    ssh_url: ssh,
    http_url: `${web}.git`,
  };
}

export function repositoryHookAttrs(sandbox: Sandbox, project: ProjectRow) {
  const attrs = projectHookAttrs(sandbox, project);
  return {
    name: attrs.name,
    url: attrs.url,
    description: attrs.description,
    homepage: attrs.homepage,
    git_http_url: attrs.git_http_url,
    git_ssh_url: attrs.git_ssh_url,
    visibility_level: attrs.visibility_level,
  };
}

/** A commit as hook payloads carry it (Commit#hook_attrs without the file lists). */
export function commitHookAttrs(sandbox: Sandbox, project: ProjectRow, commit: RawCommit) {
  return {
    id: commit.id,
    message: commit.message,
    title: commit.message.split('\n', 1)[0],
    timestamp: commit.authoredDate.replace('.000', ''),
    url: `${sandbox.config.externalUrl}/${project.path_with_namespace}/-/commit/${commit.id}`,
    author: { name: commit.authorName, email: commit.authorEmail },
  };
}
