import type { Sandbox, UserRow } from '../context.ts';
import { insertProject } from '../areas/projects.ts';
import { AccessLevel, visibilityRank, type NamespaceRow, type ProjectRow, type SourceType, type Visibility } from '../model/access.ts';
import { addDays, timestamp } from '../model/time.ts';
import { createUser, insertToken } from '../model/users.ts';
import { seedDemoRepositories } from './repositories.ts';
import { seedIssues } from './issues.ts';
import { seedRunners } from '../areas/runners.ts';
import { generator } from './random.ts';
import { seedDemoPipelines, seedFleetPipelines } from './pipelines.ts';
import { seedDemoAlerts } from './alerts.ts';

/**
 * The demo instance: a fictional company (Acme Corp) with an engineering, a design and a platform
 * organisation, plus an open-source community (Lumen). Everything is drawn from a fixed-seed
 * generator and dated relative to the start of the current UTC day, so two seeds made on the same
 * day (or with the same clock) are identical.
 */

export interface DemoToken {
  username: string;
  secret: string;
  scopes: readonly string[];
  purpose: string;
}

/** Personal access tokens with fixed secrets, for end-to-end tests and the docs. */
export const DEMO_TOKENS = {
  maintainer: {
    username: 'maya.chen',
    secret: 'glpat-demo-maintainer-000001',
    scopes: ['api'],
    purpose: 'Maintainer of acme-engineering/backend (and so of its subgroups and projects), Developer elsewhere in acme-engineering: member management and project settings',
  },
  developer: {
    username: 'diego.ramirez',
    secret: 'glpat-demo-developer-000001',
    scopes: ['api'],
    purpose: 'Direct Developer of acme-engineering, so Developer of every subgroup and project below it by inheritance: is refused Maintainer-only operations',
  },
  readonly: {
    username: 'olga.petrova',
    secret: 'glpat-demo-readonly-0000001',
    scopes: ['read_api'],
    purpose: 'Reporter of acme-engineering/backend/payments with a read_api token: every read works, every write answers 403 insufficient_scope',
  },
} as const satisfies Record<string, DemoToken>;

/** Tokens of diego.ramirez that no longer authenticate, for the 401 paths. */
export const DEMO_DEAD_TOKENS = {
  expired: { username: 'diego.ramirez', secret: 'glpat-demo-expired-00000001', purpose: 'expired 30 days ago: 401 "Token is expired"' },
  revoked: { username: 'diego.ramirez', secret: 'glpat-demo-revoked-00000001', purpose: 'revoked: 401 "Token was revoked"' },
} as const;

/** Paths of the demo objects that tests and the bench address directly. */
export const DEMO_PATHS = {
  /** Top-level group with SAML SSO and more than 60 direct members. */
  bigGroup: 'acme-engineering',
  /** Private project two subgroups deep: inherited, overridden and expiring members. */
  inheritedProject: 'acme-engineering/backend/payments/payments-service',
  /** Group invited into acme-engineering/frontend at Reporter. */
  sharedGroupGuest: 'acme-design',
  sharedGroupHost: 'acme-engineering/frontend',
  /** The issue tracker: 3,000 issues, scoped labels, milestones, a board (group boards on bigGroup). */
  issueTracker: 'acme-engineering/frontend/web-app',
  /** Project invited acme-engineering/backend at Developer. */
  sharedProject: 'platform-team/infrastructure/terraform-modules',
  /**
   * Merge requests in every state (iids in DEMO_MERGE_REQUESTS): draft, awaiting review of diego.ramirez, partly and fully
   * approved (each open one has its own any-approver rule needing 2), conflicts, unresolved threads, 100 files / 5,000 lines, merged, closed.
   */
  mergeRequests: 'acme-engineering/frontend/web-app',
} as const;

export { DEMO_MERGE_REQUESTS } from './merge-requests.ts';
export { DEMO_PIPELINES } from './pipelines.ts';
export { DEMO_ALERTS } from './alerts.ts';

export const DEMO_SAML_PROVIDER_ID = 7;

const DAY_MS = 86_400_000;

const FIRST_NAMES = [
  'Aaliyah', 'Adebayo', 'Aiko', 'Aisha', 'Alejandro', 'Aleksander', 'Amara', 'Ananya', 'Andrea', 'Anja', 'Arjun', 'Astrid',
  'Ayşe', 'Benjamin', 'Bianca', 'Björn', 'Bogdan', 'Camila', 'Carlos', 'Catalina', 'Chiara', 'Daniel', 'Daria', 'Dmitri',
  'Elena', 'Elif', 'Élodie', 'Emeka', 'Emma', 'Ethan', 'Fatima', 'Felix', 'Freya', 'Gabriel', 'Hana', 'Hannah', 'Hugo',
  'Ibrahim', 'Ingrid', 'Isabela', 'Ivan', 'Jakub', 'James', 'Jasmine', 'Javier', 'Ji-woo', 'Johan', 'Jonas', 'José',
  'Julia', 'Kai', 'Karim', 'Katarzyna', 'Kenji', 'Laila', 'Lars', 'Leila', 'Liam', 'Lucas', 'Lucía', 'Luis', 'Łukasz',
  'Mai', 'Malik', 'Marco', 'María', 'Mateo', 'Mei', 'Mikael', 'Mina', 'Mohammed', 'Nadia', 'Naledi', 'Nikolai', 'Nina',
  'Omar', 'Oscar', 'Pablo', 'Paulo', 'Pedro', 'Rania', 'Ravi', 'Rosa', 'Ruth', 'Sakura', 'Samuel', 'Santiago', 'Sara',
  'Sebastian', 'Siddharth', 'Søren', 'Tariq', 'Thabo', 'Valentina', 'Viktor', 'Wei', 'Yara', 'Yusuf', 'Zainab', 'Zoë',
];

const LAST_NAMES = [
  'Abadi', 'Adeyemi', 'Ahmed', 'Alvarez', 'Andersen', 'Bakker', 'Banerjee', 'Bauer', 'Bernard', 'Bianchi', 'Brown',
  'Castillo', 'Chowdhury', 'Cohen', 'Costa', 'da Silva', 'Dubois', 'Eriksson', 'Fernández', 'Fischer', 'Fujita', 'García',
  'Gonzalez', 'Gupta', 'Haddad', 'Hansen', 'Hernández', 'Hoffmann', 'Horvat', 'Iyer', 'Jansen', 'Johansson', 'Kaur',
  'Kim', 'Kovács', 'Kowalski', 'Kumar', 'Larsen', 'Lee', 'Lopez', 'Moreau', 'Müller', 'Murphy', 'Mwangi', 'Nakamura',
  'Nguyen', 'Novak', 'Nowak', "O'Brien", 'Okonkwo', 'Olsen', 'Osei', 'Park', 'Patel', 'Pereira', 'Petrović', 'Popescu',
  'Reyes', 'Rossi', 'Russo', 'Santos', 'Sato', 'Schmidt', 'Singh', 'Smith', 'Sokolov', 'Suzuki', 'Takahashi', 'Tan',
  'Taylor', 'Tran', 'van den Berg', 'Virtanen', 'Wagner', 'Walker', 'Wang', 'Weber', 'Wiśniewski', 'Wong', 'Yamamoto',
  'Yilmaz', 'Zhang', 'Zimmermann',
];

type Team = 'engineering' | 'design' | 'platform' | 'community' | 'other';

const JOB_TITLES: Record<Team, readonly string[]> = {
  engineering: [
    'Software Engineer', 'Senior Software Engineer', 'Staff Engineer', 'Backend Engineer', 'Frontend Engineer', 'Mobile Engineer',
    'QA Engineer', 'Engineering Manager', 'Data Engineer', 'Security Engineer', 'Software Engineer II', 'Principal Engineer',
  ],
  design: ['Product Designer', 'Senior Product Designer', 'UX Researcher', 'Brand Designer', 'Content Designer', 'Design Manager'],
  platform: ['Site Reliability Engineer', 'Platform Engineer', 'DevOps Engineer', 'Infrastructure Engineer'],
  community: ['Software Developer', 'Open Source Maintainer', 'Graphics Programmer', 'Student', 'Technical Writer', 'Consultant', '', ''],
  other: ['Product Manager', 'Data Analyst', 'Consultant', 'Technical Writer', 'Support Engineer', '', ''],
};

const OUTSIDE_ORGANIZATIONS = ['Globex', 'Initech', 'Soylent Labs', 'Vandelay Industries', 'Tyrell Systems', 'Wayfarer Studio', 'Northbridge University', 'Freelance', '', ''];
const PERSONAL_MAIL_DOMAINS = ['mail.example', 'proton.example', 'fastmail.example', 'example.org', 'example.net'];
const ACME_DOMAIN = 'acme.example';

const BIOS = [
  'Coffee, compilers and long bike rides.',
  'Making slow things fast.',
  'I review merge requests before breakfast.',
  'Accessibility advocate. Ask me about screen readers.',
  'Former physicist, current yak shaver.',
  'Building tools for people who build tools.',
  'Likes: flame graphs. Dislikes: flaky tests.',
];

/** A display name made safe for usernames and mail addresses. */
function ascii(text: string): string {
  return text
    .replace(/ł/g, 'l').replace(/Ł/g, 'L').replace(/ø/g, 'o').replace(/Ø/g, 'O').replace(/ß/g, 'ss')
    .normalize('NFD').replace(/[\u0300-\u036f]/g, '')
    .toLowerCase().replace(/[^a-z0-9-]/g, '');
}

interface Person {
  username: string;
  name: string;
  email: string;
  team: Team;
  organization: string;
  jobTitle: string;
  createdDaysAgo: number;
  publicEmail?: boolean;
  isAdmin?: boolean;
  external?: boolean;
  state?: 'active' | 'blocked' | 'deactivated';
  /** Never signed in (invited but the invitation was not accepted yet, or provisioned). */
  neverSignedIn?: boolean;
  bio?: string;
}

/** The people the demo's story is about; everyone else is generated around them. */
const CAST: readonly Person[] = [
  { username: 'amelia.hart', name: 'Amelia Hart', email: 'amelia.hart@acme.example', team: 'other', organization: 'Acme Corp', jobTitle: 'IT Operations Lead', createdDaysAgo: 1060, isAdmin: true, publicEmail: true },
  { username: 'rmehta', name: 'Rahul Mehta', email: 'rahul.mehta@acme.example', team: 'other', organization: 'Acme Corp', jobTitle: 'Systems Administrator', createdDaysAgo: 840, isAdmin: true },
  { username: 'grace.okafor', name: 'Grace Okafor', email: 'grace.okafor@acme.example', team: 'engineering', organization: 'Acme Corp', jobTitle: 'VP of Engineering', createdDaysAgo: 1050, publicEmail: true, bio: 'Engineering at Acme. Hiring!' },
  { username: 'maya.chen', name: 'Maya Chen', email: 'maya.chen@acme.example', team: 'engineering', organization: 'Acme Corp', jobTitle: 'Staff Backend Engineer', createdDaysAgo: 990, publicEmail: true, bio: 'Payments, queues and the occasional dotfile.' },
  { username: 'diego.ramirez', name: 'Diego Ramírez', email: 'diego.ramirez@acme.example', team: 'engineering', organization: 'Acme Corp', jobTitle: 'Software Engineer', createdDaysAgo: 610 },
  { username: 'olga.petrova', name: 'Olga Petrova', email: 'olga.petrova@acme.example', team: 'other', organization: 'Acme Corp', jobTitle: 'Compliance Analyst', createdDaysAgo: 420 },
  { username: 'hiroshi.tanaka', name: 'Hiroshi Tanaka', email: 'hiroshi.tanaka@acme.example', team: 'engineering', organization: 'Acme Corp', jobTitle: 'Engineering Manager, Payments', createdDaysAgo: 930 },
  { username: 'emily.clarke', name: 'Emily Clarke', email: 'emily.clarke@acme.example', team: 'other', organization: 'Acme Corp', jobTitle: 'Product Manager', createdDaysAgo: 700 },
  { username: 'lena.vogel', name: 'Lena Vogel', email: 'lena.vogel@acme.example', team: 'design', organization: 'Acme Corp', jobTitle: 'Head of Design', createdDaysAgo: 1000, publicEmail: true },
  { username: 'noah.williams', name: 'Noah Williams', email: 'noah.williams@acme.example', team: 'platform', organization: 'Acme Corp', jobTitle: 'Platform Engineering Lead', createdDaysAgo: 1040 },
  { username: 'priya.nair', name: 'Priya Nair', email: 'priya.nair@acme.example', team: 'platform', organization: 'Acme Corp', jobTitle: 'Senior Site Reliability Engineer', createdDaysAgo: 880, publicEmail: true },
  { username: 'sofia.lindqvist', name: 'Sofia Lindqvist', email: 'sofia@lindqvist.example', team: 'community', organization: 'Lumen Project', jobTitle: 'Lumen creator and lead maintainer', createdDaysAgo: 1080, publicEmail: true, bio: 'I make pixels go brrr. Creator of Lumen.' },
  { username: 'kwame.mensah', name: 'Kwame Mensah', email: 'kwame.mensah@mail.example', team: 'community', organization: 'Globex', jobTitle: 'Graphics Programmer', createdDaysAgo: 960, publicEmail: true },
  { username: 'wei.zhang', name: '张伟', email: 'zhang.wei@mail.example', team: 'community', organization: 'Northbridge University', jobTitle: 'PhD Student', createdDaysAgo: 520 },
  { username: 'tom.becker', name: 'Tom Becker', email: 'tom.becker@consulting.example', team: 'other', organization: 'Becker Consulting', jobTitle: 'Contract Java Developer', createdDaysAgo: 75, external: true },
  { username: 'ines.costa', name: 'Inês Costa', email: 'ines.costa@agency.example', team: 'other', organization: 'Pixel & Co', jobTitle: 'Accessibility Auditor', createdDaysAgo: 40, external: true },
  { username: 'mark.jensen', name: 'Mark Jensen', email: 'mark.jensen@acme.example', team: 'engineering', organization: 'Acme Corp', jobTitle: 'Senior Software Engineer', createdDaysAgo: 1010, state: 'blocked' },
  { username: 'chloe.martin', name: 'Chloé Martin', email: 'chloe.martin@acme.example', team: 'engineering', organization: 'Acme Corp', jobTitle: 'QA Engineer', createdDaysAgo: 800, state: 'deactivated' },
];

/** How many generated people each team gets besides the cast. */
const TEAM_SIZES: Record<Team, number> = { engineering: 58, design: 10, platform: 8, community: 45, other: 16 };

function generatePeople(random: ReturnType<typeof generator>): Person[] {
  const usedNames = new Set(CAST.map((person) => person.name));
  const usedUsernames = new Set(CAST.map((person) => person.username.toLowerCase()));
  const usedEmails = new Set(CAST.map((person) => person.email.toLowerCase()));
  const people: Person[] = [];
  for (const team of Object.keys(TEAM_SIZES) as Team[]) {
    for (let i = 0; i < TEAM_SIZES[team]; i++) {
      let first: string;
      let last: string;
      do {
        first = random.pick(FIRST_NAMES);
        last = random.pick(LAST_NAMES);
      } while (usedNames.has(`${first} ${last}`));
      const name = `${first} ${last}`;
      usedNames.add(name);
      const [f, l] = [ascii(first), ascii(last)];
      const style = random.next();
      let username =
        style < 0.4 ? `${f}.${l}`
        : style < 0.6 ? `${f[0]}${l}`
        : style < 0.7 ? `${f}${l[0]}`
        : style < 0.8 ? `${f}_${l}`
        : style < 0.9 ? `${f}${random.int(7, 99)}`
        : `${l}${f[0]}`;
      while (usedUsernames.has(username)) username = `${username}${random.int(1, 9)}`;
      usedUsernames.add(username);
      const acme = team === 'engineering' || team === 'design' || team === 'platform';
      let email = acme ? `${f}.${l}@${ACME_DOMAIN}` : `${username.replace(/_/g, '.')}@${random.pick(PERSONAL_MAIL_DOMAINS)}`;
      while (usedEmails.has(email)) email = email.replace('@', `${random.int(1, 9)}@`);
      usedEmails.add(email);
      people.push({
        username,
        name,
        email,
        team,
        organization: acme ? 'Acme Corp' : random.pick(OUTSIDE_ORGANIZATIONS),
        jobTitle: random.pick(JOB_TITLES[team]),
        // the community and the engineering org are the oldest, hires keep coming
        createdDaysAgo: random.int(team === 'other' ? 3 : 10, 3 * 365 - 10),
        publicEmail: random.chance(team === 'community' ? 0.45 : 0.2),
        neverSignedIn: random.chance(0.08),
        bio: random.chance(0.2) ? random.pick(BIOS) : undefined,
      });
    }
  }
  // two spam accounts and one leaver, blocked by an administrator
  const others = people.filter((person) => person.team === 'other');
  others[0].state = 'blocked';
  others[1].state = 'blocked';
  others[1].neverSignedIn = true;
  return people;
}

/** Seeds the demo instance inside the caller's transaction, after user 1 (`root`). */
export function seedDemo(sandbox: Sandbox): void {
  const { db } = sandbox;
  const now = sandbox.now();
  // the start of the current UTC day: the seed is the same all day long
  const anchor = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const random = generator(0x5eed_2026);
  const at = (daysAgo: number) => new Date(anchor.getTime() - daysAgo * DAY_MS);
  const stamp = (daysAgo: number) => timestamp(at(daysAgo));
  const daysBetween = (from: string, to: Date) => Math.max(0, (to.getTime() - Date.parse(from)) / DAY_MS);

  const root = db.prepare('SELECT * FROM users WHERE id = 1').get() as UserRow;

  // -- users: oldest first, so ids grow with sign-up dates
  const people = [...CAST, ...generatePeople(random)].sort((a, b) => b.createdDaysAgo - a.createdDaysAgo || a.username.localeCompare(b.username));
  const users = new Map<string, UserRow>();
  const teamOf = new Map<number, Team>();
  for (const person of people) {
    // fractions of a day keep sign-up times from all landing on midnight
    const createdDaysAgo = person.createdDaysAgo + random.next() * 0.9;
    const createdAt = stamp(createdDaysAgo);
    let lastSignIn: number | null = null;
    if (!person.neverSignedIn) {
      // recent sign-ins are more common than old ones
      lastSignIn = createdDaysAgo * random.next() ** 3;
      if (person.state === 'blocked') lastSignIn = Math.max(lastSignIn, Math.min(createdDaysAgo, 120 + random.next() * 200));
      if (person.state === 'deactivated') lastSignIn = Math.min(createdDaysAgo, 190 + random.next() * 60);
      if (person.isAdmin || ['maya.chen', 'diego.ramirez', 'olga.petrova', 'grace.okafor'].includes(person.username)) lastSignIn = random.next() * 1.5;
    }
    const user = createUser(db, {
      username: person.username,
      name: person.name,
      email: person.email,
      isAdmin: person.isAdmin,
      state: person.state,
      external: person.external,
      publicEmail: person.publicEmail ? person.email : null,
      bio: person.bio,
      organization: person.organization,
      jobTitle: person.jobTitle,
      // administrators created the accounts of outside collaborators by hand
      createdById: person.external ? 1 : null,
      createdAt,
      lastSignInAt: lastSignIn === null ? null : stamp(lastSignIn),
      lastActivityOn: lastSignIn === null ? null : addDays(at(lastSignIn), lastSignIn > 2 ? random.int(0, 2) : 0),
    });
    users.set(person.username, user);
    teamOf.set(user.id, person.team);
  }
  const user = (username: string) => {
    const found = users.get(username);
    if (!found) throw new Error(`demo seed: no user ${username}`);
    return found;
  };
  // the generated, active people of a team, oldest account first
  const team = (name: Team) =>
    [...users.values()].filter((row) => teamOf.get(row.id) === name && row.state === 'active' && !CAST.some((person) => person.username === row.username));

  // -- groups
  const insertGroup = db.prepare(
    `INSERT INTO namespaces (kind, name, path, full_path, parent_id, description, visibility, saml_provider_id, settings, created_at, updated_at)
     VALUES ('group', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const group = (spec: { name: string; path: string; parent?: NamespaceRow; visibility: Visibility; description: string; createdDaysAgo: number; samlProviderId?: number; settings?: object }) => {
    if (spec.parent && visibilityRank(spec.visibility) > visibilityRank(spec.parent.visibility)) {
      throw new Error(`demo seed: ${spec.path} is more visible than its parent`);
    }
    const createdAt = stamp(spec.createdDaysAgo);
    const fullPath = spec.parent ? `${spec.parent.full_path}/${spec.path}` : spec.path;
    const result = insertGroup.run(spec.name, spec.path, fullPath, spec.parent?.id ?? null, spec.description, spec.visibility, spec.samlProviderId ?? null, JSON.stringify(spec.settings ?? {}), createdAt, createdAt);
    return db.prepare('SELECT * FROM namespaces WHERE id = ?').get(Number(result.lastInsertRowid)) as NamespaceRow;
  };

  const engineering = group({ name: 'Acme Engineering', path: 'acme-engineering', visibility: 'internal', description: 'All of Acme product engineering. Sign in with Acme SSO.', createdDaysAgo: 1045, samlProviderId: DEMO_SAML_PROVIDER_ID, settings: { project_creation_level: 'maintainer' } });
  const backend = group({ name: 'Backend', path: 'backend', parent: engineering, visibility: 'internal', description: 'Services behind the Acme apps.', createdDaysAgo: 1000 });
  const payments = group({ name: 'Payments', path: 'payments', parent: backend, visibility: 'private', description: 'PCI scope: card processing and the ledger. Access is reviewed quarterly.', createdDaysAgo: 900, settings: { require_two_factor_authentication: true } });
  const frontend = group({ name: 'Frontend', path: 'frontend', parent: engineering, visibility: 'internal', description: 'Web app and the shared component library.', createdDaysAgo: 990 });
  const mobile = group({ name: 'Mobile', path: 'mobile', parent: engineering, visibility: 'private', description: 'iOS and Android apps.', createdDaysAgo: 700 });
  const design = group({ name: 'Acme Design', path: 'acme-design', visibility: 'private', description: 'Brand, product design and research.', createdDaysAgo: 995 });
  const brand = group({ name: 'Brand', path: 'brand', parent: design, visibility: 'private', description: 'Logos, typefaces and campaign assets.', createdDaysAgo: 980 });
  const productDesign = group({ name: 'Product Design', path: 'product-design', parent: design, visibility: 'private', description: 'Flows, prototypes and research notes.', createdDaysAgo: 960 });
  const lumen = group({ name: 'Lumen', path: 'lumen', visibility: 'public', description: 'Lumen is a fast, portable 2D rendering engine. Everyone is welcome to contribute!', createdDaysAgo: 1075, settings: { request_access_enabled: true } });
  const lumenCore = group({ name: 'Core', path: 'core', parent: lumen, visibility: 'public', description: 'The engine itself.', createdDaysAgo: 1070 });
  const lumenPlugins = group({ name: 'Plugins', path: 'plugins', parent: lumen, visibility: 'public', description: 'Officially maintained plugins.', createdDaysAgo: 800 });
  const lumenThemes = group({ name: 'Themes', path: 'themes', parent: lumenPlugins, visibility: 'internal', description: 'Theme experiments, not ready for the public yet.', createdDaysAgo: 300 });
  const lumenDocs = group({ name: 'Docs', path: 'docs', parent: lumen, visibility: 'public', description: 'Website and guides.', createdDaysAgo: 760 });
  const platform = group({ name: 'Platform Team', path: 'platform-team', visibility: 'private', description: 'Internal platform: clusters, CI runners, observability.', createdDaysAgo: 1035, settings: { subgroup_creation_level: 'owner' } });
  const infrastructure = group({ name: 'Infrastructure', path: 'infrastructure', parent: platform, visibility: 'private', description: 'Terraform and Kubernetes.', createdDaysAgo: 1000 });
  const observability = group({ name: 'Observability', path: 'observability', parent: platform, visibility: 'private', description: 'Dashboards, alerts and on-call runbooks.', createdDaysAgo: 650 });

  // -- memberships
  const taken = new Set<string>();
  const insertMember = db.prepare(
    `INSERT INTO members (source_type, source_id, user_id, access_level, state, expires_at, created_by_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  type Source = { type: SourceType; id: number; created_at: string };
  const asSource = (row: NamespaceRow | ProjectRow): Source => ({ type: 'namespace_id' in row ? 'Project' : 'Namespace', id: row.id, created_at: row.created_at });
  const member = (target: NamespaceRow | ProjectRow, who: UserRow, level: number, options: { by?: UserRow | null; expiresInDays?: number; state?: 'awaiting' } = {}) => {
    const source = asSource(target);
    const key = `${source.type}:${source.id}:${who.id}`;
    if (taken.has(key)) throw new Error(`demo seed: ${who.username} is already a member of ${source.type} ${source.id}`);
    taken.add(key);
    // joined after both the user and the group existed, a little while ago
    const earliest = Math.max(Date.parse(source.created_at), Date.parse(who.created_at));
    const days = daysBetween(new Date(earliest).toISOString(), anchor);
    const createdAt = stamp(Math.max(0.05, days - random.next() * Math.min(days, 60)));
    insertMember.run(
      source.type, source.id, who.id, level, options.state ?? 'active',
      options.expiresInDays === undefined ? null : addDays(anchor, options.expiresInDays),
      options.by === undefined ? null : options.by?.id ?? null, createdAt, createdAt,
    );
  };

  // Acme Engineering: the big group (64 direct members), SSO, all seven roles
  const grace = user('grace.okafor');
  const maya = user('maya.chen');
  const hiroshi = user('hiroshi.tanaka');
  member(engineering, grace, AccessLevel.OWNER, { by: null });
  member(engineering, maya, AccessLevel.DEVELOPER, { by: grace });
  member(engineering, user('diego.ramirez'), AccessLevel.DEVELOPER, { by: maya });
  member(engineering, hiroshi, AccessLevel.DEVELOPER, { by: grace });
  member(engineering, user('mark.jensen'), AccessLevel.DEVELOPER, { by: grace });
  member(engineering, user('chloe.martin'), AccessLevel.REPORTER, { by: grace });
  const engineers = team('engineering');
  const engineeringRoles: Array<[number, number, { expiresInDays?: number; state?: 'awaiting' }?]> = [
    [AccessLevel.MAINTAINER, 3], [AccessLevel.DEVELOPER, 35], [AccessLevel.DEVELOPER, 1, { expiresInDays: 182 }],
    [AccessLevel.REPORTER, 8], [AccessLevel.PLANNER, 3], [AccessLevel.GUEST, 3], [AccessLevel.MINIMAL_ACCESS, 3],
    [AccessLevel.DEVELOPER, 2, { state: 'awaiting' }],
  ];
  let cursor = 0;
  for (const [level, count, options] of engineeringRoles) {
    for (let i = 0; i < count; i++) member(engineering, engineers[cursor++], level, { by: random.chance(0.7) ? grace : maya, ...options });
  }
  const engineeringMaintainers = engineers.slice(0, 3);
  const engineeringDevelopers = engineers.slice(3, 38);

  // overrides: higher roles further down the tree
  member(backend, maya, AccessLevel.MAINTAINER, { by: grace });
  member(backend, engineeringDevelopers[0], AccessLevel.MAINTAINER, { by: maya });
  member(backend, engineeringDevelopers[1], AccessLevel.MAINTAINER, { by: maya });
  member(backend, user('priya.nair'), AccessLevel.REPORTER, { by: maya });
  member(payments, hiroshi, AccessLevel.OWNER, { by: grace });
  member(payments, user('olga.petrova'), AccessLevel.REPORTER, { by: hiroshi });
  member(payments, user('emily.clarke'), AccessLevel.PLANNER, { by: hiroshi });
  member(frontend, engineeringDevelopers[2], AccessLevel.MAINTAINER, { by: grace });
  member(frontend, user('emily.clarke'), AccessLevel.PLANNER, { by: engineeringDevelopers[2] });
  member(mobile, engineeringDevelopers[3], AccessLevel.MAINTAINER, { by: grace });
  member(mobile, engineeringDevelopers[4], AccessLevel.MAINTAINER, { by: grace });

  // Acme Design
  const lena = user('lena.vogel');
  member(design, lena, AccessLevel.OWNER, { by: null });
  const designers = team('design');
  const designRoles = [AccessLevel.MAINTAINER, AccessLevel.MAINTAINER, AccessLevel.DEVELOPER, AccessLevel.DEVELOPER, AccessLevel.DEVELOPER, AccessLevel.DEVELOPER, AccessLevel.DEVELOPER, AccessLevel.REPORTER, AccessLevel.REPORTER, AccessLevel.GUEST];
  designers.forEach((designer, index) => member(design, designer, designRoles[index], { by: lena }));
  member(productDesign, designers[2], AccessLevel.MAINTAINER, { by: lena });
  const outsiders = team('other');
  // an outside brand agency, on a six-month contract
  member(brand, outsiders[2], AccessLevel.REPORTER, { by: lena, expiresInDays: 182 });

  // Lumen, the public community
  const sofia = user('sofia.lindqvist');
  const kwame = user('kwame.mensah');
  member(lumen, sofia, AccessLevel.OWNER, { by: null });
  member(lumen, kwame, AccessLevel.MAINTAINER, { by: sofia });
  member(lumen, user('wei.zhang'), AccessLevel.DEVELOPER, { by: kwame });
  member(lumen, maya, AccessLevel.DEVELOPER, { by: sofia });
  const community = team('community');
  const communityRoles: Array<[number, number, { state?: 'awaiting'; expiresInDays?: number }?]> = [
    [AccessLevel.MAINTAINER, 4], [AccessLevel.DEVELOPER, 15], [AccessLevel.REPORTER, 12], [AccessLevel.GUEST, 11],
    [AccessLevel.GUEST, 1, { expiresInDays: 20 }], [AccessLevel.PLANNER, 1], [AccessLevel.GUEST, 1, { state: 'awaiting' }],
  ];
  cursor = 0;
  for (const [level, count, options] of communityRoles) {
    for (let i = 0; i < count; i++) member(lumen, community[cursor++], level, { by: random.chance(0.6) ? sofia : kwame, ...options });
  }
  member(lumenCore, community[4], AccessLevel.MAINTAINER, { by: sofia });
  member(lumenCore, community[5], AccessLevel.MAINTAINER, { by: sofia });
  // plugin authors: guests of the community, developers of the plugins
  for (const author of community.slice(31, 34)) member(lumenPlugins, author, AccessLevel.DEVELOPER, { by: kwame });
  member(lumenThemes, community[6], AccessLevel.MAINTAINER, { by: kwame });
  member(lumenDocs, community[20], AccessLevel.MAINTAINER, { by: sofia });

  // Platform Team
  const noah = user('noah.williams');
  const priya = user('priya.nair');
  member(platform, noah, AccessLevel.OWNER, { by: null });
  member(platform, priya, AccessLevel.MAINTAINER, { by: noah });
  const sres = team('platform');
  const platformRoles = [AccessLevel.MAINTAINER, AccessLevel.DEVELOPER, AccessLevel.DEVELOPER, AccessLevel.DEVELOPER, AccessLevel.DEVELOPER, AccessLevel.DEVELOPER, AccessLevel.DEVELOPER, AccessLevel.REPORTER];
  sres.forEach((sre, index) => member(platform, sre, platformRoles[index], { by: random.chance(0.5) ? noah : priya }));
  member(infrastructure, sres[1], AccessLevel.MAINTAINER, { by: noah });
  member(observability, user('amelia.hart'), AccessLevel.REPORTER, { by: priya });
  // a minimal-access seat for the auditor who only needs to see the group exists
  member(platform, user('olga.petrova'), AccessLevel.MINIMAL_ACCESS, { by: noah });

  // -- projects
  const personalNamespace = (owner: UserRow) => db.prepare("SELECT * FROM namespaces WHERE kind = 'user' AND owner_id = ?").get(owner.id) as NamespaceRow;
  const updateProject = db.prepare('UPDATE projects SET last_activity_at = ?, updated_at = ?, star_count = ? WHERE id = ?');
  const project = (spec: { name: string; path: string; namespace: NamespaceRow; creator: UserRow; visibility: Visibility; description: string; topics: string[]; createdDaysAgo: number; defaultBranch?: string }) => {
    const row = insertProject(sandbox, {
      name: spec.name,
      path: spec.path,
      namespace: spec.namespace,
      creator: spec.creator,
      visibility: spec.visibility,
      description: spec.description,
      topics: spec.topics,
      defaultBranch: spec.defaultBranch ?? 'main',
      createdAt: stamp(spec.createdDaysAgo),
    });
    const activity = stamp(Math.min(spec.createdDaysAgo, random.next() ** 2 * 30));
    const stars = spec.visibility === 'public' ? random.int(3, 400) : random.int(0, 6);
    updateProject.run(activity, activity, stars, row.id);
    return db.prepare('SELECT * FROM projects WHERE id = ?').get(row.id) as ProjectRow;
  };

  const paymentsService = project({ name: 'Payments Service', path: 'payments-service', namespace: payments, creator: hiroshi, visibility: 'private', description: 'Card authorisation, capture and refunds behind the checkout.', topics: ['java', 'spring-boot', 'payments', 'pci'], createdDaysAgo: 890 });
  const ledger = project({ name: 'Ledger', path: 'ledger', namespace: payments, creator: hiroshi, visibility: 'private', description: 'Double-entry ledger. Legacy: still on master, migration planned.', topics: ['java', 'accounting'], createdDaysAgo: 880, defaultBranch: 'master' });
  const apiGateway = project({ name: 'API Gateway', path: 'api-gateway', namespace: backend, creator: maya, visibility: 'internal', description: 'Edge routing, authentication and rate limits for every public API.', topics: ['go', 'api', 'gateway'], createdDaysAgo: 985 });
  const webApp = project({ name: 'Web App', path: 'web-app', namespace: frontend, creator: engineeringDevelopers[2], visibility: 'internal', description: 'The customer-facing web application.', topics: ['typescript', 'react'], createdDaysAgo: 975 });
  // its review rules: every thread resolved before merging (the demo's request with open threads waits on them)
  db.prepare("UPDATE projects SET settings = json_set(settings, '$.only_allow_merge_if_all_discussions_are_resolved', json('true')) WHERE id = ?").run(webApp.id);
  project({ name: 'Design System', path: 'design-system', namespace: frontend, creator: engineeringDevelopers[2], visibility: 'internal', description: 'Shared React components and design tokens.', topics: ['typescript', 'react', 'design-system', 'storybook'], createdDaysAgo: 640 });
  const iosApp = project({ name: 'iOS App', path: 'ios-app', namespace: mobile, creator: engineeringDevelopers[3], visibility: 'private', description: 'Acme for iPhone and iPad.', topics: ['swift', 'ios'], createdDaysAgo: 690 });
  project({ name: 'Engineering Handbook', path: 'handbook', namespace: engineering, creator: grace, visibility: 'internal', description: 'How we work: on-call, code review, incident process.', topics: ['docs', 'handbook'], createdDaysAgo: 1040 });
  project({ name: 'Brand Assets', path: 'brand-assets', namespace: brand, creator: lena, visibility: 'private', description: 'Source files for logos, icons and campaign art.', topics: ['brand', 'figma'], createdDaysAgo: 970 });
  project({ name: 'UX Research', path: 'ux-research', namespace: productDesign, creator: designers[2], visibility: 'private', description: 'Interview notes and usability study reports.', topics: ['research', 'ux'], createdDaysAgo: 930 });
  const lumenEngine = project({ name: 'Lumen', path: 'lumen', namespace: lumenCore, creator: sofia, visibility: 'public', description: 'A fast, portable 2D rendering engine written in Rust.', topics: ['rust', 'graphics', 'rendering', 'gpu'], createdDaysAgo: 1068 });
  project({ name: 'lumen-markdown', path: 'lumen-markdown', namespace: lumenPlugins, creator: kwame, visibility: 'public', description: 'Render Markdown documents with Lumen.', topics: ['rust', 'markdown', 'plugin'], createdDaysAgo: 780 });
  project({ name: 'Aurora Theme', path: 'aurora-theme', namespace: lumenThemes, creator: community[6], visibility: 'internal', description: 'A dark theme with northern-lights gradients. Work in progress.', topics: ['theme'], createdDaysAgo: 290 });
  project({ name: 'Website', path: 'website', namespace: lumenDocs, creator: community[20], visibility: 'public', description: 'Source of lumen.example: guides, API reference and the blog.', topics: ['docs', 'hugo'], createdDaysAgo: 750 });
  const terraformModules = project({ name: 'Terraform Modules', path: 'terraform-modules', namespace: infrastructure, creator: noah, visibility: 'private', description: 'Reusable modules for networks, clusters and databases.', topics: ['terraform', 'aws', 'infrastructure'], createdDaysAgo: 990 });
  project({ name: 'Grafana Dashboards', path: 'grafana-dashboards', namespace: observability, creator: priya, visibility: 'private', description: 'Dashboards as code, provisioned to every cluster.', topics: ['grafana', 'observability', 'jsonnet'], createdDaysAgo: 640 });
  const dotfiles = project({ name: 'dotfiles', path: 'dotfiles', namespace: personalNamespace(maya), creator: maya, visibility: 'public', description: 'zsh, neovim and tmux configuration.', topics: ['dotfiles', 'neovim'], createdDaysAgo: 800 });
  project({ name: 'Advent of Code', path: 'advent-of-code', namespace: personalNamespace(user('diego.ramirez')), creator: user('diego.ramirez'), visibility: 'internal', description: 'Puzzle solutions, one language per year.', topics: ['puzzles', 'rust'], createdDaysAgo: 360 });

  // direct project members: outside contractors with end dates, and reviewers
  member(paymentsService, user('tom.becker'), AccessLevel.DEVELOPER, { by: hiroshi, expiresInDays: 20 });
  member(paymentsService, outsiders[3], AccessLevel.GUEST, { by: hiroshi, expiresInDays: 3 });
  member(paymentsService, engineeringDevelopers[5], AccessLevel.MAINTAINER, { by: hiroshi });
  member(ledger, engineers[40], AccessLevel.DEVELOPER, { by: hiroshi });
  member(apiGateway, outsiders[4], AccessLevel.REPORTER, { by: maya });
  member(webApp, user('ines.costa'), AccessLevel.REPORTER, { by: engineeringDevelopers[2], expiresInDays: 3 });
  member(iosApp, user('emily.clarke'), AccessLevel.PLANNER, { by: engineeringDevelopers[3] });
  member(lumenEngine, outsiders[5], AccessLevel.DEVELOPER, { by: sofia });
  member(lumenEngine, outsiders[6], AccessLevel.DEVELOPER, { by: kwame });
  member(lumenEngine, community[40], AccessLevel.REPORTER, { by: kwame });
  member(terraformModules, engineeringMaintainers[0], AccessLevel.GUEST, { by: noah });
  member(dotfiles, kwame, AccessLevel.REPORTER, { by: maya });

  // -- bots: project and group access tokens each come with a bot user
  const bot = (target: NamespaceRow | ProjectRow, tokenName: string, level: number, createdDaysAgo: number, by: UserRow) => {
    const kind = 'namespace_id' in target ? 'project' : 'group';
    const username = `${kind}_${target.id}_bot_${random.hex(32)}`;
    const createdAt = stamp(createdDaysAgo);
    const row = createUser(db, {
      username,
      name: tokenName,
      email: `${username}@noreply.${new URL(sandbox.config.externalUrl).hostname}`,
      userType: 'project_bot',
      createdById: by.id,
      createdAt,
      lastSignInAt: null,
      lastActivityOn: addDays(anchor, -random.int(0, 5)),
    });
    member(target, row, level, { by });
    insertToken(db, { userId: row.id, name: tokenName, secret: `glpat-${random.hex(20)}`, scopes: ['api'], createdAt, expiresAt: addDays(anchor, random.int(60, 300)) });
  };
  bot(paymentsService, 'payments-deploy', AccessLevel.MAINTAINER, 200, hiroshi);
  bot(webApp, 'renovate', AccessLevel.DEVELOPER, 120, engineeringDevelopers[2]);
  bot(lumenEngine, 'release-bot', AccessLevel.DEVELOPER, 330, sofia);
  bot(platform, 'terraform-ci', AccessLevel.MAINTAINER, 90, noah);

  // -- sharing: designers read the frontend, the backend works on the shared Terraform modules
  const insertLink = db.prepare('INSERT INTO group_links (shared_type, shared_id, group_id, group_access, expires_at, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  insertLink.run('Namespace', frontend.id, design.id, AccessLevel.REPORTER, null, stamp(410));
  insertLink.run('Project', terraformModules.id, backend.id, AccessLevel.DEVELOPER, null, stamp(220));

  // -- SSO: every direct member of Acme Engineering has signed in through the group's SAML provider
  const insertIdentity = db.prepare("INSERT INTO identities (user_id, provider, extern_uid, saml_provider_id) VALUES (?, 'group_saml', ?, ?)");
  const engineeringMembers = db
    .prepare("SELECT u.id, u.email FROM members m JOIN users u ON u.id = m.user_id WHERE m.source_type = 'Namespace' AND m.source_id = ? AND u.user_type = 'human' AND u.external = 0 ORDER BY u.id")
    .all(engineering.id) as Array<{ id: number; email: string }>;
  for (const row of engineeringMembers) insertIdentity.run(row.id, row.email, DEMO_SAML_PROVIDER_ID);
  // accounts made after Acme verified its domain are enterprise users of the group
  const enterprise = engineeringMembers.filter((row) => row.email.endsWith(`@${ACME_DOMAIN}`)).sort((a, b) => b.id - a.id).slice(0, 10);
  const markEnterprise = db.prepare('UPDATE users SET enterprise_group_id = ? WHERE id = ?');
  for (const row of enterprise) markEnterprise.run(engineering.id, row.id);

  // -- follows: root follows the leads; a few people are widely followed
  const follows = new Set<string>();
  const insertFollow = db.prepare('INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?)');
  const humans = [...users.values()].filter((row) => row.state === 'active');
  const follow = (follower: UserRow, followee: UserRow) => {
    const key = `${follower.id}:${followee.id}`;
    if (follower.id === followee.id || follows.has(key)) return;
    follows.add(key);
    const days = Math.min(daysBetween(follower.created_at, anchor), daysBetween(followee.created_at, anchor));
    insertFollow.run(follower.id, followee.id, stamp(random.next() * days));
  };
  for (const lead of [grace, sofia, noah, lena, maya]) follow(root, lead);
  for (const [star, fans] of [[sofia, 48], [grace, 26], [kwame, 18], [maya, 14]] as const) {
    for (const fan of random.shuffle(humans).slice(0, fans)) follow(fan, star);
  }
  for (const follower of humans) {
    const count = random.chance(0.4) ? 0 : random.int(1, 5);
    for (let i = 0; i < count; i++) follow(follower, random.pick(humans));
  }

  // -- personal access tokens
  const token = (owner: UserRow, spec: { name: string; secret?: string; scopes: readonly string[]; createdDaysAgo: number; expiresAt: string; revoked?: boolean; lastUsedDaysAgo?: number; description?: string }) => {
    const row = insertToken(db, {
      userId: owner.id,
      name: spec.name,
      description: spec.description ?? null,
      secret: spec.secret ?? `glpat-${random.hex(20)}`,
      scopes: spec.scopes,
      createdAt: stamp(spec.createdDaysAgo),
      expiresAt: spec.expiresAt,
    });
    db.prepare('UPDATE personal_access_tokens SET revoked = ?, last_used_at = ? WHERE id = ?')
      .run(spec.revoked ? 1 : 0, spec.lastUsedDaysAgo === undefined ? null : stamp(spec.lastUsedDaysAgo), row.id);
  };
  const demoExpiry = addDays(anchor, sandbox.config.maxTokenLifetimeDays);
  for (const demo of Object.values(DEMO_TOKENS)) {
    token(user(demo.username), { name: `demo ${demo.scopes.join(' ')}`, description: demo.purpose, secret: demo.secret, scopes: demo.scopes, createdDaysAgo: 1, expiresAt: demoExpiry });
  }
  const diego = user('diego.ramirez');
  token(diego, { name: 'ci-2024', secret: DEMO_DEAD_TOKENS.expired.secret, scopes: ['read_api', 'read_repository'], createdDaysAgo: 395, expiresAt: addDays(anchor, -30), lastUsedDaysAgo: 31.6 });
  token(diego, { name: 'old laptop', secret: DEMO_DEAD_TOKENS.revoked.secret, scopes: ['api'], createdDaysAgo: 250, expiresAt: addDays(anchor, 115), revoked: true, lastUsedDaysAgo: 139.7 });
  for (const owner of random.shuffle([...engineeringDevelopers, ...sres, ...community]).slice(0, 14)) {
    const createdDaysAgo = random.int(1, Math.min(300, Math.floor(daysBetween(owner.created_at, anchor))));
    token(owner, {
      name: random.pick(['laptop', 'ci', 'cli', 'renovate', 'backup script', 'ide']),
      scopes: random.pick([['api'], ['read_api'], ['read_repository', 'write_repository'], ['read_api', 'read_user']]),
      createdDaysAgo,
      expiresAt: addDays(anchor, random.int(10, 365 - createdDaysAgo)),
      lastUsedDaysAgo: random.chance(0.7) ? random.next() * Math.min(createdDaysAgo, 20) : undefined,
    });
  }

  // -- the CI runner fleet (2,600 runners) and a few jobs on it
  seedRunners(sandbox);

  // -- the issue tracker: 3,000 issues in the web app, a few in other subgroups, boards over them
  seedIssues(sandbox, { tracker: webApp, others: [apiGateway, paymentsService, iosApp], group: engineering, people: [maya, diego, ...engineeringDevelopers.slice(0, 24)], triager: maya }, anchor);

  // -- repositories: real git histories for the projects the file browser and history show off
  seedDemoRepositories(sandbox, { webApp, dotfiles, paymentsService, ledger, lumen: lumenEngine }, anchor);

  // -- pipelines: the API gateway's CI history (5,000 pipelines, a 200-job graph, a 100,000-line log, a 2,000-case report),
  // then a real pipeline for each of the runner fleet's jobs
  seedDemoPipelines(sandbox, apiGateway, anchor);
  seedFleetPipelines(sandbox);

  // -- alerts: integrations of both kinds and 320 alerts on the gateway, 10,000 on the payments service
  seedDemoAlerts(sandbox, { gateway: apiGateway, bench: paymentsService, people: [maya, user('diego.ramirez')] }, anchor);
}
