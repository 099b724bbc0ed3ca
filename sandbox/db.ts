import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';

export type Db = Database.Database;

/**
 * Versioned schema. Each entry moves the schema one version forward; never edit a released
 * entry, append a new one, so a data directory written by an older build still opens.
 */
export const migrations: ReadonlyArray<(db: Db) => void> = [
  // 1: platform core
  (db) =>
    db.exec(`
    CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);

    CREATE TABLE users (
      id INTEGER PRIMARY KEY,
      username TEXT NOT NULL UNIQUE COLLATE NOCASE,
      name TEXT NOT NULL,
      email TEXT NOT NULL UNIQUE COLLATE NOCASE,
      public_email TEXT,
      state TEXT NOT NULL DEFAULT 'active',
      locked INTEGER NOT NULL DEFAULT 0,
      is_admin INTEGER NOT NULL DEFAULT 0,
      user_type TEXT NOT NULL DEFAULT 'human',
      external INTEGER NOT NULL DEFAULT 0,
      avatar_url TEXT,
      bio TEXT NOT NULL DEFAULT '',
      location TEXT NOT NULL DEFAULT '',
      job_title TEXT NOT NULL DEFAULT '',
      organization TEXT NOT NULL DEFAULT '',
      private_profile INTEGER NOT NULL DEFAULT 0,
      projects_limit INTEGER NOT NULL DEFAULT 100000,
      can_create_group INTEGER NOT NULL DEFAULT 1,
      enterprise_group_id INTEGER,
      created_by_id INTEGER,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      confirmed_at TEXT,
      last_sign_in_at TEXT,
      current_sign_in_at TEXT,
      last_activity_on TEXT
    );

    CREATE TABLE identities (
      id INTEGER PRIMARY KEY,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      provider TEXT NOT NULL,
      extern_uid TEXT NOT NULL,
      saml_provider_id INTEGER
    );
    CREATE INDEX identities_user ON identities(user_id);

    CREATE TABLE personal_access_tokens (
      id INTEGER PRIMARY KEY,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      description TEXT,
      token_digest TEXT NOT NULL UNIQUE,
      scopes TEXT NOT NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT,
      revoked INTEGER NOT NULL DEFAULT 0,
      last_used_at TEXT,
      previous_token_id INTEGER REFERENCES personal_access_tokens(id),
      family_id INTEGER
    );
    CREATE INDEX pat_user ON personal_access_tokens(user_id);

    CREATE TABLE namespaces (
      id INTEGER PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('group', 'user')),
      name TEXT NOT NULL,
      path TEXT NOT NULL,
      full_path TEXT NOT NULL UNIQUE COLLATE NOCASE,
      parent_id INTEGER REFERENCES namespaces(id),
      owner_id INTEGER REFERENCES users(id),
      description TEXT NOT NULL DEFAULT '',
      visibility TEXT NOT NULL DEFAULT 'private',
      saml_provider_id INTEGER,
      settings TEXT NOT NULL DEFAULT '{}',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX namespaces_parent ON namespaces(parent_id);
    CREATE UNIQUE INDEX namespaces_user_owner ON namespaces(owner_id) WHERE kind = 'user';

    CREATE TABLE projects (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      path TEXT NOT NULL,
      path_with_namespace TEXT NOT NULL UNIQUE COLLATE NOCASE,
      namespace_id INTEGER NOT NULL REFERENCES namespaces(id),
      creator_id INTEGER REFERENCES users(id),
      description TEXT NOT NULL DEFAULT '',
      visibility TEXT NOT NULL DEFAULT 'private',
      default_branch TEXT NOT NULL DEFAULT 'main',
      archived INTEGER NOT NULL DEFAULT 0,
      repository_storage TEXT NOT NULL DEFAULT 'default',
      topics TEXT NOT NULL DEFAULT '[]',
      settings TEXT NOT NULL DEFAULT '{}',
      star_count INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      last_activity_at TEXT NOT NULL
    );
    CREATE INDEX projects_namespace ON projects(namespace_id);

    -- old full paths of renamed projects and groups keep resolving (spec 1, 4.1.9)
    CREATE TABLE redirect_routes (
      path TEXT PRIMARY KEY COLLATE NOCASE,
      source_type TEXT NOT NULL,
      source_id INTEGER NOT NULL
    );

    CREATE TABLE members (
      id INTEGER PRIMARY KEY,
      source_type TEXT NOT NULL CHECK (source_type IN ('Namespace', 'Project')),
      source_id INTEGER NOT NULL,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      access_level INTEGER NOT NULL,
      state TEXT NOT NULL DEFAULT 'active',
      expires_at TEXT,
      created_by_id INTEGER REFERENCES users(id),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (source_type, source_id, user_id)
    );
    CREATE INDEX members_user ON members(user_id);

    -- a group invited into a group or project (sharing)
    CREATE TABLE group_links (
      id INTEGER PRIMARY KEY,
      shared_type TEXT NOT NULL CHECK (shared_type IN ('Namespace', 'Project')),
      shared_id INTEGER NOT NULL,
      group_id INTEGER NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE,
      group_access INTEGER NOT NULL,
      expires_at TEXT,
      created_at TEXT NOT NULL,
      UNIQUE (shared_type, shared_id, group_id)
    );
    CREATE INDEX group_links_group ON group_links(group_id);

    CREATE TABLE follows (
      follower_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      followee_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at TEXT NOT NULL,
      PRIMARY KEY (follower_id, followee_id)
    );
    CREATE INDEX follows_followee ON follows(followee_id);

    -- job tokens: valid only for the registry and packages of the job's project (spec 1, 5.1)
    CREATE TABLE ci_job_tokens (
      token_digest TEXT PRIMARY KEY,
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      user_id INTEGER NOT NULL REFERENCES users(id),
      expires_at TEXT NOT NULL
    );
  `),
  // 2: list orders used by the users and projects endpoints
  (db) =>
    db.exec(`
    CREATE INDEX users_name ON users(name COLLATE NOCASE, id);
    CREATE INDEX users_created ON users(created_at, id);
    CREATE INDEX projects_activity ON projects(last_activity_at, id);
  `),
  // 3: service accounts belong to the group that provisioned them; token families for reuse detection
  (db) =>
    db.exec(`
    ALTER TABLE users ADD COLUMN provisioned_by_group_id INTEGER;
    CREATE INDEX users_provisioned_by_group ON users(provisioned_by_group_id) WHERE provisioned_by_group_id IS NOT NULL;
    CREATE INDEX pat_family ON personal_access_tokens(family_id);
  `),
  // repository area: deploy keys and protected branches (the git data itself lives in repositories/)
  (db) =>
    db.exec(`
    CREATE TABLE deploy_keys (
      id INTEGER PRIMARY KEY,
      user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      title TEXT NOT NULL,
      key TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      fingerprint_sha256 TEXT NOT NULL UNIQUE,
      public INTEGER NOT NULL DEFAULT 0,
      usage_type TEXT NOT NULL DEFAULT 'auth_and_signing',
      expires_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE TABLE deploy_keys_projects (
      id INTEGER PRIMARY KEY,
      deploy_key_id INTEGER NOT NULL REFERENCES deploy_keys(id) ON DELETE CASCADE,
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      can_push INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      UNIQUE (deploy_key_id, project_id)
    );
    CREATE INDEX deploy_keys_projects_project ON deploy_keys_projects(project_id);

    CREATE TABLE protected_branches (
      id INTEGER PRIMARY KEY,
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      allow_force_push INTEGER NOT NULL DEFAULT 0,
      code_owner_approval_required INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      UNIQUE (project_id, name)
    );
    -- who may push, merge or unprotect: a role, a user, a group or (push only) a deploy key
    CREATE TABLE protected_branch_access_levels (
      id INTEGER PRIMARY KEY,
      protected_branch_id INTEGER NOT NULL REFERENCES protected_branches(id) ON DELETE CASCADE,
      kind TEXT NOT NULL CHECK (kind IN ('push', 'merge', 'unprotect')),
      access_level INTEGER,
      user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
      group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
      deploy_key_id INTEGER REFERENCES deploy_keys(id) ON DELETE CASCADE
    );
    CREATE INDEX protected_branch_access_levels_branch ON protected_branch_access_levels(protected_branch_id);
  `),
  // runners area: runners (owners, tags, registration tokens), their jobs, and system hooks with their delivery log
  (db) =>
    db.exec(`
    CREATE TABLE ci_runners (
      id INTEGER PRIMARY KEY,
      runner_type TEXT NOT NULL CHECK (runner_type IN ('instance_type', 'group_type', 'project_type')),
      name TEXT,
      description TEXT,
      active INTEGER NOT NULL DEFAULT 1,
      locked INTEGER NOT NULL DEFAULT 0,
      run_untagged INTEGER NOT NULL DEFAULT 1,
      access_level TEXT NOT NULL DEFAULT 'not_protected',
      maximum_timeout INTEGER,
      maintenance_note TEXT,
      token_digest TEXT NOT NULL UNIQUE,
      token_expires_at TEXT,
      registration_type TEXT NOT NULL DEFAULT 'authenticated_user',
      creator_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      version TEXT,
      revision TEXT,
      platform TEXT,
      architecture TEXT,
      system_id TEXT,
      contacted_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX ci_runners_type ON ci_runners(runner_type, id);
    CREATE INDEX ci_runners_contacted ON ci_runners(contacted_at);
    CREATE INDEX ci_runners_version ON ci_runners(version);

    CREATE TABLE ci_runner_projects (
      runner_id INTEGER NOT NULL REFERENCES ci_runners(id) ON DELETE CASCADE,
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      created_at TEXT NOT NULL,
      PRIMARY KEY (runner_id, project_id)
    );
    CREATE INDEX ci_runner_projects_project ON ci_runner_projects(project_id);

    CREATE TABLE ci_runner_namespaces (
      runner_id INTEGER NOT NULL PRIMARY KEY REFERENCES ci_runners(id) ON DELETE CASCADE,
      namespace_id INTEGER NOT NULL REFERENCES namespaces(id) ON DELETE CASCADE
    );
    CREATE INDEX ci_runner_namespaces_namespace ON ci_runner_namespaces(namespace_id);

    CREATE TABLE ci_runner_taggings (
      runner_id INTEGER NOT NULL REFERENCES ci_runners(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      PRIMARY KEY (runner_id, name)
    );
    CREATE INDEX ci_runner_taggings_name ON ci_runner_taggings(name, runner_id);

    -- legacy registration tokens: the instance's (scope_id 0), and a group's or project's once reset
    CREATE TABLE ci_registration_tokens (
      scope_type TEXT NOT NULL CHECK (scope_type IN ('instance', 'group', 'project')),
      scope_id INTEGER NOT NULL,
      token_digest TEXT NOT NULL UNIQUE,
      created_at TEXT NOT NULL,
      PRIMARY KEY (scope_type, scope_id)
    );

    CREATE TABLE ci_builds (
      id INTEGER PRIMARY KEY,
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      runner_id INTEGER REFERENCES ci_runners(id) ON DELETE SET NULL,
      system_id TEXT,
      pipeline_id INTEGER,
      pipeline_iid INTEGER,
      user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      name TEXT NOT NULL,
      stage TEXT NOT NULL,
      status TEXT NOT NULL,
      ref TEXT NOT NULL,
      tag INTEGER NOT NULL DEFAULT 0,
      sha TEXT NOT NULL,
      commit_title TEXT NOT NULL DEFAULT '',
      coverage REAL,
      allow_failure INTEGER NOT NULL DEFAULT 0,
      failure_reason TEXT,
      created_at TEXT NOT NULL,
      started_at TEXT,
      finished_at TEXT
    );
    CREATE INDEX ci_builds_runner ON ci_builds(runner_id, id);
    CREATE INDEX ci_builds_project ON ci_builds(project_id, id);

    -- the secret token and URL variable values must reach the receiver, so they are kept as given
    CREATE TABLE system_hooks (
      id INTEGER PRIMARY KEY,
      url TEXT NOT NULL,
      name TEXT NOT NULL DEFAULT '',
      description TEXT NOT NULL DEFAULT '',
      token TEXT,
      push_events INTEGER NOT NULL DEFAULT 0,
      tag_push_events INTEGER NOT NULL DEFAULT 0,
      merge_requests_events INTEGER NOT NULL DEFAULT 0,
      repository_update_events INTEGER NOT NULL DEFAULT 1,
      enable_ssl_verification INTEGER NOT NULL DEFAULT 1,
      push_events_branch_filter TEXT,
      branch_filter_strategy TEXT NOT NULL DEFAULT 'wildcard',
      url_variables TEXT NOT NULL DEFAULT '{}',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );

    CREATE TABLE system_hook_deliveries (
      id INTEGER PRIMARY KEY,
      hook_id INTEGER NOT NULL REFERENCES system_hooks(id) ON DELETE CASCADE,
      trigger TEXT NOT NULL,
      url TEXT NOT NULL,
      request_headers TEXT NOT NULL,
      request_data TEXT NOT NULL,
      response_status TEXT NOT NULL,
      response_headers TEXT NOT NULL,
      response_body TEXT NOT NULL,
      execution_duration REAL NOT NULL,
      internal_error_message TEXT,
      created_at TEXT NOT NULL
    );
    CREATE INDEX system_hook_deliveries_hook ON system_hook_deliveries(hook_id, id);
  `),
  // repository storage moves: the moves, the read-only flag of a moving repository, group wiki storages
  (db) =>
    db.exec(`
    ALTER TABLE projects ADD COLUMN repository_read_only INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE group_wiki_repositories (
      group_id INTEGER PRIMARY KEY REFERENCES namespaces(id) ON DELETE CASCADE,
      repository_storage TEXT NOT NULL DEFAULT 'default',
      read_only INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE repository_storage_moves (
      id INTEGER PRIMARY KEY,
      container_type TEXT NOT NULL,
      container_id INTEGER NOT NULL,
      state TEXT NOT NULL,
      source_storage_name TEXT NOT NULL,
      destination_storage_name TEXT NOT NULL,
      error_message TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX repository_storage_moves_container ON repository_storage_moves(container_type, container_id, created_at);
    CREATE INDEX repository_storage_moves_created ON repository_storage_moves(container_type, created_at);
  `),
  // merge requests: the requests, their assignees and reviewers, and each project's last iid (iids are never reused);
  // users point at requests without cascading so a deleted user's requests pass to the Ghost User
  (db) =>
    db.exec(`
    CREATE TABLE merge_requests (
      id INTEGER PRIMARY KEY,
      iid INTEGER NOT NULL,
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      title TEXT NOT NULL,
      description TEXT,
      state TEXT NOT NULL DEFAULT 'opened',
      source_branch TEXT NOT NULL,
      target_branch TEXT NOT NULL,
      author_id INTEGER NOT NULL REFERENCES users(id),
      labels TEXT NOT NULL DEFAULT '[]',
      squash INTEGER NOT NULL DEFAULT 0,
      force_remove_source_branch INTEGER,
      should_remove_source_branch INTEGER,
      allow_collaboration INTEGER NOT NULL DEFAULT 0,
      discussion_locked INTEGER,
      merge_after TEXT,
      merge_status TEXT NOT NULL DEFAULT 'unchecked',
      head_sha TEXT,
      merge_commit_sha TEXT,
      squash_commit_sha TEXT,
      merge_user_id INTEGER REFERENCES users(id),
      merged_at TEXT,
      closed_by_id INTEGER REFERENCES users(id),
      closed_at TEXT,
      updated_by_id INTEGER REFERENCES users(id),
      last_edited_at TEXT,
      last_edited_by_id INTEGER REFERENCES users(id),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (project_id, iid)
    );
    CREATE INDEX merge_requests_project_state ON merge_requests(project_id, state, source_branch);
    CREATE INDEX merge_requests_author ON merge_requests(author_id);
    CREATE TABLE merge_request_assignees (
      merge_request_id INTEGER NOT NULL REFERENCES merge_requests(id) ON DELETE CASCADE,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      PRIMARY KEY (merge_request_id, user_id)
    );
    CREATE INDEX merge_request_assignees_user ON merge_request_assignees(user_id);
    CREATE TABLE merge_request_reviewers (
      merge_request_id INTEGER NOT NULL REFERENCES merge_requests(id) ON DELETE CASCADE,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      PRIMARY KEY (merge_request_id, user_id)
    );
    CREATE INDEX merge_request_reviewers_user ON merge_request_reviewers(user_id);
    CREATE TABLE merge_request_iids (
      project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
      last_iid INTEGER NOT NULL
    );
  `),
  // stars: who starred which project, for `starred=true` (star_count stays the projects' own column)
  (db) =>
    db.exec(`
    CREATE TABLE project_stars (
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      created_at TEXT NOT NULL,
      PRIMARY KEY (user_id, project_id)
    );
    CREATE INDEX project_stars_project ON project_stars(project_id);
  `),
  // issues area: labels and milestones (of a project or a group), issues, notes, award emoji, resource events,
  // subscriptions, time logs, project snippets (notes need them) and boards with their lists
  (db) =>
    db.exec(`
    CREATE TABLE labels (
      id INTEGER PRIMARY KEY,
      project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
      group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
      title TEXT NOT NULL,
      color TEXT NOT NULL,
      description TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      CHECK ((project_id IS NULL) != (group_id IS NULL))
    );
    CREATE UNIQUE INDEX labels_project_title ON labels(project_id, title) WHERE project_id IS NOT NULL;
    CREATE UNIQUE INDEX labels_group_title ON labels(group_id, title) WHERE group_id IS NOT NULL;
    -- a label's priority is the project's, for its own and its groups' labels
    CREATE TABLE label_priorities (
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      label_id INTEGER NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
      priority INTEGER NOT NULL,
      PRIMARY KEY (project_id, label_id)
    );

    CREATE TABLE milestones (
      id INTEGER PRIMARY KEY,
      iid INTEGER NOT NULL,
      project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
      group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
      title TEXT NOT NULL,
      description TEXT,
      state TEXT NOT NULL DEFAULT 'active',
      start_date TEXT,
      due_date TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      CHECK ((project_id IS NULL) != (group_id IS NULL))
    );
    CREATE UNIQUE INDEX milestones_project_title ON milestones(project_id, title) WHERE project_id IS NOT NULL;
    CREATE UNIQUE INDEX milestones_group_title ON milestones(group_id, title) WHERE group_id IS NOT NULL;

    CREATE TABLE issues (
      id INTEGER PRIMARY KEY,
      iid INTEGER NOT NULL,
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      title TEXT NOT NULL,
      description TEXT,
      state TEXT NOT NULL DEFAULT 'opened',
      issue_type TEXT NOT NULL DEFAULT 'issue',
      author_id INTEGER NOT NULL REFERENCES users(id),
      milestone_id INTEGER REFERENCES milestones(id) ON DELETE SET NULL,
      confidential INTEGER NOT NULL DEFAULT 0,
      discussion_locked INTEGER,
      due_date TEXT,
      weight INTEGER,
      health_status TEXT,
      relative_position INTEGER,
      time_estimate INTEGER NOT NULL DEFAULT 0,
      closed_at TEXT,
      closed_by_id INTEGER REFERENCES users(id),
      moved_to_id INTEGER REFERENCES issues(id) ON DELETE SET NULL,
      updated_by_id INTEGER REFERENCES users(id),
      last_edited_at TEXT,
      last_edited_by_id INTEGER REFERENCES users(id),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (project_id, iid)
    );
    CREATE INDEX issues_project_state ON issues(project_id, state, created_at);
    CREATE INDEX issues_author ON issues(author_id);
    CREATE INDEX issues_milestone ON issues(milestone_id);
    CREATE TABLE issue_assignees (
      issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      PRIMARY KEY (issue_id, user_id)
    );
    CREATE INDEX issue_assignees_user ON issue_assignees(user_id);
    CREATE TABLE issue_labels (
      issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
      label_id INTEGER NOT NULL REFERENCES labels(id) ON DELETE CASCADE,
      PRIMARY KEY (issue_id, label_id)
    );
    CREATE INDEX issue_labels_label ON issue_labels(label_id);
    CREATE TABLE issue_iids (
      project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
      last_iid INTEGER NOT NULL
    );
    CREATE TABLE timelogs (
      id INTEGER PRIMARY KEY,
      issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
      user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      time_spent INTEGER NOT NULL,
      summary TEXT,
      created_at TEXT NOT NULL
    );
    CREATE INDEX timelogs_issue ON timelogs(issue_id);

    -- an explicit choice; without one, the author, assignees and commenters are subscribed
    CREATE TABLE subscriptions (
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      subscribable_type TEXT NOT NULL,
      subscribable_id INTEGER NOT NULL,
      -- a group label's subscription is per project (0: at the group)
      project_id INTEGER NOT NULL DEFAULT 0,
      subscribed INTEGER NOT NULL,
      PRIMARY KEY (user_id, subscribable_type, subscribable_id, project_id)
    );

    CREATE TABLE snippets (
      id INTEGER PRIMARY KEY,
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      author_id INTEGER NOT NULL REFERENCES users(id),
      title TEXT NOT NULL,
      description TEXT,
      file_name TEXT NOT NULL,
      content TEXT NOT NULL,
      visibility TEXT NOT NULL DEFAULT 'private',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX snippets_project ON snippets(project_id);

    CREATE TABLE notes (
      id INTEGER PRIMARY KEY,
      noteable_type TEXT NOT NULL CHECK (noteable_type IN ('Issue', 'Snippet')),
      noteable_id INTEGER NOT NULL,
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      author_id INTEGER NOT NULL REFERENCES users(id),
      body TEXT NOT NULL,
      system INTEGER NOT NULL DEFAULT 0,
      internal INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX notes_noteable ON notes(noteable_type, noteable_id, created_at);

    CREATE TABLE award_emoji (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      awardable_type TEXT NOT NULL CHECK (awardable_type IN ('Issue', 'Note')),
      awardable_id INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (awardable_type, awardable_id, name, user_id)
    );
    CREATE INDEX award_emoji_user ON award_emoji(user_id, name);

    CREATE TABLE resource_label_events (
      id INTEGER PRIMARY KEY,
      issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
      label_id INTEGER REFERENCES labels(id) ON DELETE SET NULL,
      user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      action TEXT NOT NULL CHECK (action IN ('add', 'remove')),
      created_at TEXT NOT NULL
    );
    CREATE INDEX resource_label_events_issue ON resource_label_events(issue_id);
    CREATE TABLE resource_state_events (
      id INTEGER PRIMARY KEY,
      issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
      user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      state TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE INDEX resource_state_events_issue ON resource_state_events(issue_id);
    CREATE TABLE resource_milestone_events (
      id INTEGER PRIMARY KEY,
      issue_id INTEGER NOT NULL REFERENCES issues(id) ON DELETE CASCADE,
      milestone_id INTEGER REFERENCES milestones(id) ON DELETE SET NULL,
      user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      action TEXT NOT NULL CHECK (action IN ('add', 'remove')),
      state TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE INDEX resource_milestone_events_issue ON resource_milestone_events(issue_id);

    CREATE TABLE boards (
      id INTEGER PRIMARY KEY,
      project_id INTEGER REFERENCES projects(id) ON DELETE CASCADE,
      group_id INTEGER REFERENCES namespaces(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      hide_backlog_list INTEGER NOT NULL DEFAULT 0,
      hide_closed_list INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      CHECK ((project_id IS NULL) != (group_id IS NULL))
    );
    CREATE TABLE board_lists (
      id INTEGER PRIMARY KEY,
      board_id INTEGER NOT NULL REFERENCES boards(id) ON DELETE CASCADE,
      list_type TEXT NOT NULL CHECK (list_type IN ('label', 'assignee', 'milestone')),
      label_id INTEGER REFERENCES labels(id) ON DELETE CASCADE,
      user_id INTEGER REFERENCES users(id) ON DELETE CASCADE,
      milestone_id INTEGER REFERENCES milestones(id) ON DELETE CASCADE,
      position INTEGER NOT NULL
    );
    CREATE INDEX board_lists_board ON board_lists(board_id, position);
  `),
  // approvals: each project's approval settings, approval rules of projects and of merge requests (users, groups and
  // protected branches as id lists), who approved which request; reviewers' review state; users' password digests
  // (scrypt, for approvals that ask for the password again)
  (db) =>
    db.exec(`
    CREATE TABLE project_approval_settings (
      project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
      approvals_before_merge INTEGER NOT NULL DEFAULT 0,
      reset_approvals_on_push INTEGER NOT NULL DEFAULT 1,
      selective_code_owner_removals INTEGER NOT NULL DEFAULT 0,
      disable_overriding_approvers_per_merge_request INTEGER NOT NULL DEFAULT 0,
      merge_requests_author_approval INTEGER NOT NULL DEFAULT 0,
      merge_requests_disable_committers_approval INTEGER NOT NULL DEFAULT 0,
      require_reauthentication_to_approve INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE approval_rules (
      id INTEGER PRIMARY KEY,
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      merge_request_id INTEGER REFERENCES merge_requests(id) ON DELETE CASCADE,
      name TEXT NOT NULL,
      rule_type TEXT NOT NULL,
      approvals_required INTEGER NOT NULL DEFAULT 0,
      applies_to_all_protected_branches INTEGER NOT NULL DEFAULT 0,
      user_ids TEXT NOT NULL DEFAULT '[]',
      group_ids TEXT NOT NULL DEFAULT '[]',
      protected_branch_ids TEXT NOT NULL DEFAULT '[]',
      source_rule_id INTEGER REFERENCES approval_rules(id) ON DELETE SET NULL
    );
    CREATE INDEX approval_rules_project ON approval_rules(project_id, merge_request_id);
    CREATE INDEX approval_rules_merge_request ON approval_rules(merge_request_id);
    CREATE TABLE merge_request_approvals (
      merge_request_id INTEGER NOT NULL REFERENCES merge_requests(id) ON DELETE CASCADE,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      created_at TEXT NOT NULL,
      PRIMARY KEY (merge_request_id, user_id)
    );
    CREATE INDEX merge_request_approvals_user ON merge_request_approvals(user_id);
    ALTER TABLE merge_request_reviewers ADD COLUMN state TEXT NOT NULL DEFAULT 'unreviewed';
    ALTER TABLE merge_request_reviewers ADD COLUMN created_at TEXT;
    ALTER TABLE users ADD COLUMN password_digest TEXT;
  `),
  // notes and award emoji on merge requests, and merge requests' milestones; notes grow threads: a discussion id, a type (DiscussionNote, DiffNote),
  // whether they can be resolved and who resolved them, and a diff position (JSON) for notes on a line of the changes
  (db) =>
    db.exec(`
    CREATE TABLE notes_v2 (
      id INTEGER PRIMARY KEY,
      noteable_type TEXT NOT NULL CHECK (noteable_type IN ('Issue', 'Snippet', 'MergeRequest')),
      noteable_id INTEGER NOT NULL,
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      author_id INTEGER NOT NULL REFERENCES users(id),
      body TEXT NOT NULL,
      system INTEGER NOT NULL DEFAULT 0,
      internal INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      discussion_id TEXT,
      type TEXT,
      resolvable INTEGER NOT NULL DEFAULT 0,
      resolved_by_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      resolved_at TEXT,
      position TEXT
    );
    INSERT INTO notes_v2 (id, noteable_type, noteable_id, project_id, author_id, body, system, internal, created_at, updated_at)
      SELECT id, noteable_type, noteable_id, project_id, author_id, body, system, internal, created_at, updated_at FROM notes;
    DROP TABLE notes;
    ALTER TABLE notes_v2 RENAME TO notes;
    CREATE INDEX notes_noteable ON notes(noteable_type, noteable_id, created_at);
    CREATE INDEX notes_discussion ON notes(discussion_id);

    CREATE TABLE award_emoji_v2 (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      awardable_type TEXT NOT NULL CHECK (awardable_type IN ('Issue', 'Note', 'MergeRequest')),
      awardable_id INTEGER NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (awardable_type, awardable_id, name, user_id)
    );
    INSERT INTO award_emoji_v2 SELECT id, name, user_id, awardable_type, awardable_id, created_at, updated_at FROM award_emoji;
    DROP TABLE award_emoji;
    ALTER TABLE award_emoji_v2 RENAME TO award_emoji;
    CREATE INDEX award_emoji_user ON award_emoji(user_id, name);
    CREATE INDEX award_emoji_awardable ON award_emoji(awardable_type, awardable_id);

    ALTER TABLE merge_requests ADD COLUMN milestone_id INTEGER REFERENCES milestones(id) ON DELETE SET NULL;
  `),
  // pipelines: the pipelines (iids per project, never reused), their variables; ci_builds (the runner fleet's jobs) grow
  // into the pipelines' jobs (stage index, when, needs, retries, the job's plan as JSON); job logs as appended chunks
  // (a 100,000-line log is a few hundred rows, never one row rewritten per line); JUnit test reports per job
  (db) =>
    db.exec(`
    CREATE TABLE ci_pipelines (
      id INTEGER PRIMARY KEY,
      iid INTEGER NOT NULL,
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      status TEXT NOT NULL,
      source TEXT NOT NULL,
      ref TEXT NOT NULL,
      tag INTEGER NOT NULL DEFAULT 0,
      sha TEXT NOT NULL,
      before_sha TEXT NOT NULL DEFAULT '0000000000000000000000000000000000000000',
      name TEXT,
      user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      yaml_errors TEXT,
      failure_reason TEXT,
      parent_pipeline_id INTEGER REFERENCES ci_pipelines(id) ON DELETE CASCADE,
      -- the trigger job (bridge) of the parent that made this child pipeline
      source_job_id INTEGER,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      started_at TEXT,
      finished_at TEXT,
      committed_at TEXT,
      commit_message TEXT NOT NULL DEFAULT '',
      commit_author_name TEXT,
      commit_author_email TEXT,
      -- the CI file's global variables at planning time (jobs inherit them)
      config_variables TEXT NOT NULL DEFAULT '{}',
      duration INTEGER,
      queued_duration INTEGER,
      coverage REAL,
      UNIQUE (project_id, iid)
    );
    CREATE INDEX ci_pipelines_project ON ci_pipelines(project_id, id);
    CREATE INDEX ci_pipelines_project_ref ON ci_pipelines(project_id, ref, id);
    CREATE INDEX ci_pipelines_project_sha ON ci_pipelines(project_id, sha, id);
    CREATE INDEX ci_pipelines_project_status ON ci_pipelines(project_id, status, id);
    CREATE INDEX ci_pipelines_project_updated ON ci_pipelines(project_id, updated_at, id);
    CREATE INDEX ci_pipelines_status ON ci_pipelines(status) WHERE status NOT IN ('success', 'failed', 'canceled', 'skipped');
    CREATE TABLE ci_pipeline_iids (
      project_id INTEGER PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
      last_iid INTEGER NOT NULL
    );
    CREATE TABLE ci_pipeline_variables (
      id INTEGER PRIMARY KEY,
      pipeline_id INTEGER NOT NULL REFERENCES ci_pipelines(id) ON DELETE CASCADE,
      key TEXT NOT NULL,
      value TEXT NOT NULL,
      variable_type TEXT NOT NULL DEFAULT 'env_var',
      masked INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX ci_pipeline_variables_pipeline ON ci_pipeline_variables(pipeline_id, id);

    ALTER TABLE ci_builds ADD COLUMN stage_idx INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE ci_builds ADD COLUMN job_when TEXT NOT NULL DEFAULT 'on_success';
    ALTER TABLE ci_builds ADD COLUMN needs TEXT;
    ALTER TABLE ci_builds ADD COLUMN retried INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE ci_builds ADD COLUMN retry_count INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE ci_builds ADD COLUMN scheduled_at TEXT;
    ALTER TABLE ci_builds ADD COLUMN queued_at TEXT;
    ALTER TABLE ci_builds ADD COLUMN updated_at TEXT;
    ALTER TABLE ci_builds ADD COLUMN tag_list TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE ci_builds ADD COLUMN plan TEXT;
    ALTER TABLE ci_builds ADD COLUMN job_variables TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE ci_builds ADD COLUMN erased_at TEXT;
    -- Ci::Build, or Ci::Bridge for a trigger job (it starts a child pipeline instead of running)
    ALTER TABLE ci_builds ADD COLUMN type TEXT NOT NULL DEFAULT 'Ci::Build';
    CREATE INDEX ci_builds_pipeline ON ci_builds(pipeline_id, id);
    CREATE INDEX ci_builds_status ON ci_builds(status) WHERE status IN ('created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'scheduled', 'canceling');

    CREATE TABLE ci_build_trace_chunks (
      build_id INTEGER NOT NULL REFERENCES ci_builds(id) ON DELETE CASCADE,
      chunk_index INTEGER NOT NULL,
      data TEXT NOT NULL,
      PRIMARY KEY (build_id, chunk_index)
    ) WITHOUT ROWID;

    -- pipeline trigger tokens (POST /projects/:id/trigger/pipeline); kept as given, as the platform shows them to their owner
    CREATE TABLE ci_triggers (
      id INTEGER PRIMARY KEY,
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      owner_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      token TEXT NOT NULL UNIQUE,
      description TEXT NOT NULL DEFAULT '',
      last_used TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX ci_triggers_project ON ci_triggers(project_id);

    CREATE TABLE ci_test_reports (
      build_id INTEGER PRIMARY KEY REFERENCES ci_builds(id) ON DELETE CASCADE,
      pipeline_id INTEGER NOT NULL,
      suites TEXT NOT NULL
    );
    CREATE INDEX ci_test_reports_pipeline ON ci_test_reports(pipeline_id);
  `),
  // alerts (#17): integrations of both formats, alerts with their payload, assignees and system notes
  (db) =>
    db.exec(`
    -- type http: several per project (top tier); type prometheus: the metrics integration, one per project
    CREATE TABLE alert_integrations (
      id INTEGER PRIMARY KEY,
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      type TEXT NOT NULL CHECK (type IN ('http', 'prometheus')),
      name TEXT NOT NULL,
      active INTEGER NOT NULL DEFAULT 1,
      endpoint_identifier TEXT NOT NULL,
      token TEXT NOT NULL,
      api_url TEXT,
      payload_example TEXT NOT NULL DEFAULT '{}',
      -- [{fieldName, path, type, label}] as the GraphQL input gives them
      payload_attribute_mapping TEXT NOT NULL DEFAULT '[]',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX alert_integrations_project ON alert_integrations(project_id, id);
    CREATE UNIQUE INDEX alert_integrations_endpoint ON alert_integrations(project_id, endpoint_identifier);

    CREATE TABLE alert_management_alerts (
      id INTEGER PRIMARY KEY,
      project_id INTEGER NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      iid INTEGER NOT NULL,
      title TEXT NOT NULL,
      description TEXT,
      severity TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('triggered', 'acknowledged', 'resolved', 'ignored')),
      started_at TEXT NOT NULL,
      ended_at TEXT,
      events INTEGER NOT NULL DEFAULT 1,
      fingerprint TEXT,
      monitoring_tool TEXT,
      service TEXT,
      hosts TEXT NOT NULL DEFAULT '[]',
      environment TEXT,
      runbook TEXT,
      payload TEXT NOT NULL DEFAULT '{}',
      integration_id INTEGER REFERENCES alert_integrations(id) ON DELETE SET NULL,
      issue_id INTEGER REFERENCES issues(id) ON DELETE SET NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX alert_management_alerts_iid ON alert_management_alerts(project_id, iid);
    -- as the platform's partial index: one alert that is not resolved per fingerprint
    CREATE UNIQUE INDEX alert_management_alerts_open_fingerprint ON alert_management_alerts(project_id, fingerprint)
      WHERE fingerprint IS NOT NULL AND status <> 'resolved';
    CREATE INDEX alert_management_alerts_started ON alert_management_alerts(project_id, started_at, id);
    CREATE INDEX alert_management_alerts_status ON alert_management_alerts(project_id, status);

    CREATE TABLE alert_management_alert_assignees (
      alert_id INTEGER NOT NULL REFERENCES alert_management_alerts(id) ON DELETE CASCADE,
      user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      PRIMARY KEY (alert_id, user_id)
    ) WITHOUT ROWID;
    CREATE INDEX alert_management_alert_assignees_user ON alert_management_alert_assignees(user_id);

    -- system notes: creation, status changes, assignments, the issue made from the alert
    CREATE TABLE alert_management_alert_notes (
      id INTEGER PRIMARY KEY,
      alert_id INTEGER NOT NULL REFERENCES alert_management_alerts(id) ON DELETE CASCADE,
      author_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
      body TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE INDEX alert_management_alert_notes_alert ON alert_management_alert_notes(alert_id, id);
  `),
];

/** Opens (creating if needed) the store in `dir` and brings its schema up to date. */
export function openDb(dir: string): Db {
  fs.mkdirSync(dir, { recursive: true });
  const db = new Database(path.join(dir, 'sandbox.sqlite3'));
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode: a committed transaction survives a killed process
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  cacheStatements(db);
  return db;
}

// enough for every fixed query of the app; lists with IN (?, ?, ...) of varying length come and go
const STATEMENT_CACHE_SIZE = 1000;

/**
 * Makes `db.prepare` reuse compiled statements: compiling costs more than running most of the
 * app's queries (a user list of 100 prepared 500 statements per request). A reused statement is
 * reset to plain row objects, in case a caller switched it to pluck, expand or raw mode.
 */
export function cacheStatements(db: Db): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, Database.Statement>();
  db.prepare = ((sql: string) => {
    let statement = cache.get(sql);
    if (statement) {
      // least recently used first: move to the end
      cache.delete(sql);
      if (statement.reader) statement.raw(false).expand(false).pluck(false);
    } else {
      statement = prepare(sql);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, statement);
    return statement;
  }) as Db['prepare'];
}

/** Applies the migrations after the stored `user_version`, each in its own transaction. */
export function migrate(db: Db, upTo = migrations.length): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > migrations.length) {
    throw new Error(
      `data directory schema version ${current} is newer than this build (${migrations.length})`,
    );
  }
  for (let version = current; version < upTo; version++) {
    db.transaction(() => {
      migrations[version](db);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
}
