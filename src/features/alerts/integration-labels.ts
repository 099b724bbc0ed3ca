export function integrationTypeLabel(type: string): string {
  return type === 'PROMETHEUS' ? 'Metrics (Prometheus)' : 'HTTP endpoint';
}

/** What an integration is called: its name, or its type's words when it has none. */
export function integrationName(integration: { name?: string | null; type: string }): string {
  return integration.name || integrationTypeLabel(integration.type);
}
