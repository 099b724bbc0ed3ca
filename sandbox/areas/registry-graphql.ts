import {
  GraphQLEnumType, GraphQLID, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLScalarType, GraphQLString,
  Kind, type GraphQLFieldConfig,
} from 'graphql';
import type { Actor, Sandbox } from '../context.ts';
import type { ProjectRow } from '../model/access.ts';
import {
  countTags, findRepository, registryAccess, registryHost, repositoryPath, tagDetailsEntity, type ContainerRepositoryRow, type ContainerTagRow,
} from '../model/registry.ts';

/**
 * The platform's `containerRepository(id)` GraphQL field: the console reads every tag with its
 * manifest creation time through it (REST's tag list has names only), 100 a page by name.
 */

interface GraphContext {
  sandbox: Sandbox;
  actor: Actor;
}

interface RepositoryNode {
  project: ProjectRow;
  repository: ContainerRepositoryRow;
}

const MAX_PAGE = 100;

const ContainerRepositoryID = new GraphQLScalarType({
  name: 'ContainerRepositoryID',
  description: 'A `ContainerRepositoryID` is a global ID. It is encoded as a string, for example "gid://gitlab/ContainerRepository/1".',
  serialize: (value) => String(value),
  parseValue: (value) => String(value),
  parseLiteral: (ast) => (ast.kind === Kind.STRING ? ast.value : null),
});

const ContainerRepositoryTagSort = new GraphQLEnumType({
  name: 'ContainerRepositoryTagSort',
  values: { NAME_ASC: { value: 'NAME_ASC' }, NAME_DESC: { value: 'NAME_DESC' } },
});

type TagNode = ReturnType<typeof tagDetailsEntity>;

const ContainerRepositoryTag = new GraphQLObjectType<TagNode>({
  name: 'ContainerRepositoryTag',
  fields: {
    name: { type: new GraphQLNonNull(GraphQLString) },
    path: { type: new GraphQLNonNull(GraphQLString) },
    location: { type: new GraphQLNonNull(GraphQLString) },
    digest: { type: GraphQLString },
    revision: { type: GraphQLString },
    shortRevision: { type: GraphQLString, resolve: (tag) => tag.short_revision },
    createdAt: { type: GraphQLString, description: 'Timestamp when the tag (its manifest) was created.', resolve: (tag) => tag.created_at },
    totalSize: { type: GraphQLString, description: 'Size of the tag (BigInt, as a string).', resolve: (tag) => String(tag.total_size) },
  },
});

export function containerRepositoryField(PageInfo: GraphQLObjectType): GraphQLFieldConfig<unknown, GraphContext> {
  const Connection = new GraphQLObjectType<{ nodes: TagNode[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } }>({
    name: 'ContainerRepositoryTagConnection',
    fields: { nodes: { type: new GraphQLList(ContainerRepositoryTag) }, pageInfo: { type: new GraphQLNonNull(PageInfo) } },
  });
  const Details = new GraphQLObjectType<RepositoryNode, GraphContext>({
    name: 'ContainerRepositoryDetails',
    fields: {
      id: { type: new GraphQLNonNull(GraphQLID), resolve: ({ repository }) => `gid://gitlab/ContainerRepository/${repository.id}` },
      name: { type: new GraphQLNonNull(GraphQLString), resolve: ({ repository }) => repository.name },
      path: { type: new GraphQLNonNull(GraphQLString), resolve: ({ project, repository }) => repositoryPath(project, repository.name) },
      location: { type: new GraphQLNonNull(GraphQLString), resolve: ({ project, repository }, _args, context) => `${registryHost(context.sandbox)}/${repositoryPath(project, repository.name)}` },
      status: { type: GraphQLString, description: 'DELETE_SCHEDULED, DELETE_ONGOING or DELETE_FAILED, null otherwise.', resolve: ({ repository }) => repository.status?.toUpperCase() ?? null },
      createdAt: { type: new GraphQLNonNull(GraphQLString), resolve: ({ repository }) => repository.created_at },
      expirationPolicyStartedAt: { type: GraphQLString, resolve: ({ repository }) => repository.cleanup_policy_started_at },
      tagsCount: { type: new GraphQLNonNull(GraphQLInt), resolve: ({ repository }, _args, context) => countTags(context.sandbox.db, repository.id) },
      tags: {
        type: Connection,
        description: 'Tags of the container repository, by name.',
        args: { first: { type: GraphQLInt }, after: { type: GraphQLString }, name: { type: GraphQLString, description: 'Search by tag name.' }, sort: { type: ContainerRepositoryTagSort } },
        resolve: ({ project, repository }, args: { first?: number | null; after?: string | null; name?: string | null; sort?: string | null }, context) => {
          const limit = Math.min(Math.max(args.first ?? MAX_PAGE, 0), MAX_PAGE);
          const descending = args.sort === 'NAME_DESC';
          const after = args.after ? Buffer.from(args.after, 'base64').toString('utf8') : null;
          const conditions = ['repository_id = ?'];
          const values: unknown[] = [repository.id];
          if (after !== null) {
            conditions.push(`name ${descending ? '<' : '>'} ?`);
            values.push(after);
          }
          if (args.name) {
            conditions.push("instr(lower(name), lower(?)) > 0");
            values.push(args.name);
          }
          const rows = context.sandbox.db
            .prepare(`SELECT * FROM container_tags WHERE ${conditions.join(' AND ')} ORDER BY name ${descending ? 'DESC' : 'ASC'} LIMIT ?`)
            .all(...values, limit + 1) as ContainerTagRow[];
          const page = rows.slice(0, limit);
          const host = registryHost(context.sandbox);
          const path = repositoryPath(project, repository.name);
          const last = page.at(-1);
          return {
            nodes: page.map((tag) => tagDetailsEntity(host, path, tag)),
            pageInfo: { hasNextPage: rows.length > limit, endCursor: last ? Buffer.from(last.name).toString('base64') : null },
          };
        },
      },
    },
  });
  return {
    type: Details,
    args: { id: { type: new GraphQLNonNull(ContainerRepositoryID), description: 'Global ID of the container repository.' } },
    resolve: (_root, args: { id: string }, context): RepositoryNode | null => {
      const match = /^gid:\/\/gitlab\/ContainerRepository\/(\d+)$/.exec(args.id);
      if (!match) throw new Error(`"${args.id}" does not represent an instance of ContainerRepository`);
      const repository = findRepository(context.sandbox.db, Number(match[1]));
      if (!repository) return null;
      try {
        const { project } = registryAccess(context.sandbox, context.actor, String(repository.project_id), context.sandbox.now(), 'read');
        return { project, repository };
      } catch {
        // hidden, unknown and forbidden are all null, as the platform answers
        return null;
      }
    },
  };
}
