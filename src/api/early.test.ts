import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { forgetEarly, startEarly } from './early.ts';
import { graphqlRequest } from './graphql.ts';
import { graphqlBody, graphqlUrl } from './graphql-reads.ts';
import type { Connection } from './http.ts';

const connection: Connection = { instanceUrl: 'http://instance.test', token: 'glpat-early' };
const QUERY = 'query tags($id: ID!) { containerRepository(id: $id) { id } }';
const MUTATION = 'mutation { destroyContainerRepositoryTags(input: {}) { errors } }';
const anything = z.unknown();

/** Every request sent: its method and body. */
function instance(): Array<{ method: string; body: unknown }> {
  const sent: Array<{ method: string; body: unknown }> = [];
  vi.stubGlobal('fetch', async (_url: string, init?: RequestInit) => {
    sent.push({ method: init?.method ?? 'GET', body: init?.body });
    return new Response(JSON.stringify({ data: { containerRepository: { id: 'gid://gitlab/ContainerRepository/3' } } }), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  return sent;
}

afterEach(() => {
  vi.unstubAllGlobals();
  forgetEarly();
});

describe('a GraphQL query sent early', () => {
  it('is taken by the client for the same query and variables, and asked again for others', async () => {
    const sent = instance();
    startEarly(graphqlUrl(connection), connection.token!, undefined, undefined, JSON.stringify(graphqlBody(QUERY, { id: 3 })));
    expect(await graphqlRequest(connection, QUERY, { id: 3 }, anything)).toEqual({ containerRepository: { id: 'gid://gitlab/ContainerRepository/3' } });
    expect(sent).toHaveLength(1);
    await graphqlRequest(connection, QUERY, { id: 4 }, anything);
    expect(sent).toHaveLength(2);
    expect(sent.map((request) => request.method)).toEqual(['POST', 'POST']);
  });

  it('is never taken for a mutation: a write is always the client’s own request', async () => {
    const sent = instance();
    startEarly(graphqlUrl(connection), connection.token!, undefined, undefined, JSON.stringify(graphqlBody(MUTATION, {})));
    await graphqlRequest(connection, MUTATION, {}, anything);
    expect(sent).toHaveLength(2);
  });

  it('is not taken with another token', async () => {
    const sent = instance();
    startEarly(graphqlUrl(connection), 'glpat-someone-else', undefined, undefined, JSON.stringify(graphqlBody(QUERY, { id: 3 })));
    await graphqlRequest(connection, QUERY, { id: 3 }, anything);
    expect(sent).toHaveLength(2);
  });
});
