/**
 * The platform's GraphQL `containerRepository(id)` with its `tags` connection: the one way the
 * platform lists a repository's tags with their digest, size and manifest creation time in bulk
 * (REST lists name, path and location only; glab's `--details` asks once per tag). The console's
 * tag list and the bulk delete preview read it, as the platform's own registry pages do.
 */
import {
  GraphQLEnumType, GraphQLID, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLScalarType, GraphQLString, Kind, type GraphQLFieldConfig,
} from 'graphql';
import type { Actor, Sandbox } from '../context.ts';
import type { ProjectRow } from '../model/access.ts';
import { countTags, findRepository, registryAccess, registryHost, repositoryPath, type ContainerRepositoryRow, type ContainerTagRow } from '../model/registry.ts';

interface GraphContext {
  sandbox: Sandbox;
  actor: Actor;
}

interface RepositoryNode {
  repository: ContainerRepositoryRow;
  project: ProjectRow;
}

type PageInfoType = GraphQLObjectType<{ hasNextPage: boolean; endCursor: string | null }>;

/** The platform's global id type of a repository, `gid://gitlab/ContainerRepository/N`, as queries declare their variable. */
const ContainerRepositoryID = new GraphQLScalarType({
  name: 'ContainerRepositoryID',
  serialize: String,
  parseValue: String,
  parseLiteral: (node) => (node.kind === Kind.STRING ? node.value : null),
});

/** At most this many tags a page, as the platform's connections. */
const MAX_PAGE = 100;

const ContainerRepositoryTag = new GraphQLObjectType<ContainerTagRow & { path: string; location: string }>({
  name: 'ContainerRepositoryTag',
  fields: {
    name: { type: new GraphQLNonNull(GraphQLString) },
    path: { type: new GraphQLNonNull(GraphQLString) },
    location: { type: new GraphQLNonNull(GraphQLString) },
    digest: { type: GraphQLString },
    revision: { type: GraphQLString },
    shortRevision: { type: GraphQLString, resolve: (tag) => tag.revision.slice(0, 9) },
    // BigInt on the platform, sent as a string
    totalSize: { type: GraphQLString, resolve: (tag) => String(tag.total_size) },
    createdAt: { type: GraphQLString, description: 'Timestamp when the tag was created (its manifest).', resolve: (tag) => tag.created_at },
  },
});

const TagSort = new GraphQLEnumType({ name: 'ContainerRepositoryTagSort', values: { NAME_ASC: { value: 'ASC' }, NAME_DESC: { value: 'DESC' } } });

interface TagsArgs {
  first?: number | null;
  after?: string | null;
  sort?: 'ASC' | 'DESC' | null;
  name?: string | null;
}

/** A keyset page of tags by name; the cursor is the page's last name, base64 as the platform's cursors are opaque. */
function tagsPage({ repository, project }: RepositoryNode, args: TagsArgs, sandbox: Sandbox) {
  const limit = Math.min(Math.max(args.first ?? MAX_PAGE, 0), MAX_PAGE);
  const descending = args.sort === 'DESC';
  const where = ['repository_id = ?'];
  const values: Array<string | number> = [repository.id];
  if (args.after) {
    where.push(`name ${descending ? '<' : '>'} ?`);
    values.push(Buffer.from(args.after, 'base64').toString('utf8'));
  }
  if (args.name) {
    where.push("name LIKE ? ESCAPE '\\'");
    values.push(`%${args.name.replace(/[\\%_]/g, (character) => `\\${character}`)}%`);
  }
  const rows = sandbox.db
    .prepare(`SELECT * FROM container_tags WHERE ${where.join(' AND ')} ORDER BY name ${descending ? 'DESC' : 'ASC'} LIMIT ?`)
    .all(...values, limit + 1) as ContainerTagRow[];
  const host = registryHost(sandbox);
  const path = repositoryPath(project, repository.name);
  const nodes = rows.slice(0, limit).map((tag) => ({ ...tag, path: `${path}:${tag.name}`, location: `${host}/${path}:${tag.name}` }));
  const last = nodes.at(-1);
  return { nodes, pageInfo: { hasNextPage: rows.length > limit, endCursor: last ? Buffer.from(last.name).toString('base64') : null } };
}

/** The schema's one `PageInfo` type is handed in, so the tag connection shares it. */
function repositoryDetails(PageInfo: PageInfoType) {
  const TagConnection = new GraphQLObjectType<ReturnType<typeof tagsPage>>({
    name: 'ContainerRepositoryTagConnection',
    fields: { nodes: { type: new GraphQLList(ContainerRepositoryTag) }, pageInfo: { type: new GraphQLNonNull(PageInfo) } },
  });
  return new GraphQLObjectType<RepositoryNode, GraphContext>({
    name: 'ContainerRepositoryDetails',
    fields: {
      id: { type: new GraphQLNonNull(GraphQLID), resolve: ({ repository }) => `gid://gitlab/ContainerRepository/${repository.id}` },
      name: { type: new GraphQLNonNull(GraphQLString), resolve: ({ repository }) => repository.name },
      path: { type: new GraphQLNonNull(GraphQLString), resolve: ({ repository, project }) => repositoryPath(project, repository.name) },
      tagsCount: { type: new GraphQLNonNull(GraphQLInt), resolve: ({ repository }, _args, context) => countTags(context.sandbox.db, repository.id) },
      tags: {
        type: TagConnection,
        description: 'Tags of the container repository, by name; keyset pages of at most 100.',
        args: { first: { type: GraphQLInt }, after: { type: GraphQLString }, sort: { type: TagSort }, name: { type: GraphQLString } },
        resolve: (node, args: TagsArgs, context) => tagsPage(node, args, context.sandbox),
      },
    },
  });
}

/** `Query.containerRepository(id: ContainerRepositoryID!)`: null when the caller may not read the project's registry. */
export const containerRepositoryField = (PageInfo: PageInfoType): GraphQLFieldConfig<unknown, GraphContext, { id: string }> => ({
  type: repositoryDetails(PageInfo),
  args: { id: { type: new GraphQLNonNull(ContainerRepositoryID), description: 'ID of the container repository (gid://gitlab/ContainerRepository/N).' } },
  resolve: (_root, args, context) => {
    const match = /^gid:\/\/gitlab\/ContainerRepository\/(\d+)$/.exec(args.id);
    if (!match) throw new Error(`"${args.id}" does not represent an instance of ContainerRepository`);
    const repository = findRepository(context.sandbox.db, Number(match[1]));
    if (!repository) return null;
    try {
      const { project } = registryAccess(context.sandbox, context.actor, String(repository.project_id), context.sandbox.now(), 'read');
      return { repository, project } satisfies RepositoryNode;
    } catch {
      // an image of a project the caller cannot see, or whose registry it may not read
      return null;
    }
  },
});
