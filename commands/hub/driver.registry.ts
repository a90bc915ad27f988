import { hubError } from '../../domain/hub/hub.errors.ts';
import type { CommDeliveryDriver } from './driver.contracts.ts';

/**
 * The registered CommDeliveryDriver components, by driverType (unique). `GET /delivery-services/driverTypes`
 * lists them sorted; saving a delivery service, and `POST /delivery-services/validateSettings`, check its
 * Settings with the driver's own validateSettings.
 */
export type DriverRegistry = {
  get(driverType: string): CommDeliveryDriver | undefined;
  /** sorted */
  types(): string[];
  /** throws DELIVERY_SERVICE.DRIVER_UNKNOWN or DELIVERY_SERVICE.SETTINGS_INVALID (every violation named) */
  validate(driverType: string, settings: Record<string, unknown>, channel: string | undefined): void;
};

export function createDriverRegistry(drivers: readonly CommDeliveryDriver[]): DriverRegistry {
  const byType = new Map<string, CommDeliveryDriver>();
  for (const d of drivers) {
    if (byType.has(d.driverType)) throw new Error(`two delivery drivers register ${d.driverType}`);
    byType.set(d.driverType, d);
  }
  return {
    get: (t) => byType.get(t),
    types: () => [...byType.keys()].sort(),
    validate(driverType, settings, channel) {
      const driver = byType.get(driverType);
      if (driver === undefined) {
        throw hubError(
          'DELIVERY_SERVICE.DRIVER_UNKNOWN',
          `no delivery driver ${driverType}; registered: ${[...byType.keys()].sort().join(', ')}`,
          [{ field: 'DriverType', message: `must be one of ${[...byType.keys()].sort().join(', ')}` }],
        );
      }
      const violations = driver.validateSettings(settings, channel);
      if (violations.length > 0) {
        throw hubError(
          'DELIVERY_SERVICE.SETTINGS_INVALID',
          `invalid ${driverType} settings: ${violations.map((v) => `${v.field} ${v.message}`).join('; ')}`,
          violations,
        );
      }
    },
  };
}
