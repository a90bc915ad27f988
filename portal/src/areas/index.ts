import { auditArea } from './audit/audit.area.tsx';
import { bridgeArea } from './bridge/bridge.area.tsx';
import { hubArea } from './hub/hub.area.tsx';
import { operationsArea } from './operations/operations.area.tsx';
import { ssoArea } from './sso/sso.area.tsx';
import { workflowArea } from './workflow/workflow.area.tsx';

/**
 * The portal's areas, in the navigation's order: an area is a folder of src/areas and one entry here
 * (shell/area.tsx says what the folder holds). Areas not built yet have no entry: the portal offers no
 * placeholder.
 */
export const AREAS = [bridgeArea, ssoArea, auditArea, workflowArea, hubArea, operationsArea] as const;
