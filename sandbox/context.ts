import type { Db } from './db.ts';
import type { ParamReader } from './http/params.ts';

export interface UserRow {
  id: number;
  username: string;
  name: string;
  email: string;
  public_email: string | null;
  /** scrypt digest of the password the user was given, if any (approvals may ask for it again). */
  password_digest?: string | null;
  state: string;
  locked: number;
  is_admin: number;
  user_type: string;
  external: number;
  avatar_url: string | null;
  bio: string;
  location: string;
  job_title: string;
  organization: string;
  private_profile: number;
  projects_limit: number;
  can_create_group: number;
  enterprise_group_id: number | null;
  created_by_id: number | null;
  created_at: string;
  updated_at: string;
  confirmed_at: string | null;
  last_sign_in_at: string | null;
  current_sign_in_at: string | null;
  last_activity_on: string | null;
}

export type Scope = 'api' | 'read_api' | 'read_user' | 'read_repository' | 'write_repository' | 'self_rotate' | 'manage_runner' | 'sudo' | 'admin_mode' | 'create_runner' | 'read_registry' | 'write_registry';

export interface Actor {
  user: UserRow | null;
  /** The authenticating token's id (personal, group or project access token). */
  tokenId: number | null;
  scopes: ReadonlySet<string>;
  via: 'anonymous' | 'access_token' | 'job_token';
  /** For a job token: the only project whose registry and packages it reaches. */
  jobProjectId: number | null;
}

export interface SandboxConfig {
  /** Origin the sandbox believes it is served at, for web_url and avatar links. */
  externalUrl: string;
  /** Maximum lifetime of an access token in days (platform setting, default 365). */
  maxTokenLifetimeDays: number;
  /** Request lines longer than this answer 414 (the platform's front proxy limit). */
  maxRequestLineBytes: number;
  /** Authenticated API requests per user and minute before 429 (the platform's throttle); 0 is none. */
  rateLimitPerMinute: number;
  /** CI time: `sleep N` and delayed jobs take N * ciTimeScale real seconds (1: real time; tests use 0 or small values). */
  ciTimeScale: number;
  /**
   * scrypt's cost (N, a power of two) for the password digests the sandbox writes: Node's 16384 by
   * default; tests lower it, as applications lower bcrypt's cost in their tests (a digest keeps its own).
   */
  passwordCost: number;
  /** Alert payloads larger than this many bytes answer 413 (default: the platform's 1 MB payload limit). */
  alertPayloadMaxBytes?: number;
}

/** What every endpoint receives besides Hono's context. */
export interface Sandbox {
  db: Db;
  config: SandboxConfig;
  now: () => Date;
  dataDir: string;
}

export type AppEnv = {
  Variables: {
    sandbox: Sandbox;
    actor: Actor;
    params: ParamReader;
  };
};

export const ANONYMOUS: Actor = {
  user: null,
  tokenId: null,
  scopes: new Set(),
  via: 'anonymous',
  jobProjectId: null,
};
