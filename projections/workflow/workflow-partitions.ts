/**
 * Read-store partitions of the workflow's per-tenant collections (projections/core: a partitioned
 * collection is one physical collection per partition). A tenant code may hold `_`, which partitions
 * keep for their own separator: it becomes `.` (tenant codes never hold one, so the mapping is one to
 * one). A tenant's search index is `<tenant>.<index>.<generation>`.
 */
export const tenantPartition = (tenant: string): string => tenant.replaceAll('_', '.');
export const searchPartition = (tenant: string, index: string, generation: number): string =>
  `${tenantPartition(tenant)}.${index}.${generation}`;
