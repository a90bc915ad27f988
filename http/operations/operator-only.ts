import type { RequestHandler } from 'express';
import { opsError } from '../../domain/operations/operations.errors.ts';
import { authOf } from '../core/tenancy.ts';

/**
 * The projections, rebuilds and readiness are the platform's, shared by every tenant: besides `ops:admin`,
 * the token must be of an operator tenant (OPS_OPERATOR_TENANTS: the platform tenant and, by default, the
 * seed tenant the operators sign in to on a fresh install). A tenant administrator elsewhere can give a user the role `ops:admin`, and that
 * user is still refused.
 */
export const operatorOnly =
  (operatorTenants: readonly string[]): RequestHandler =>
  (_req, res, next) => {
    const { tenant } = authOf(res);
    if (operatorTenants.includes(tenant)) return next();
    next(
      opsError(
        'OPS.TENANT_FORBIDDEN',
        `the operations API is for the platform's operators; tenant ${tenant} is not one of theirs`,
        { tenant },
      ),
    );
  };
