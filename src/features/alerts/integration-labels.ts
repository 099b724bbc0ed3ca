export function integrationTypeLabel(type: string): string {
  return type === 'PROMETHEUS' ? 'Metrics (Prometheus)' : 'HTTP endpoint';
}
