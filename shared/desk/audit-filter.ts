// The Audit log screen's filters, as the registry's audit search takes them (GET /operator/v1/audit):
// the screen reads pages with them and the CSV export pages through all of them with the same, so
// the file holds exactly the filtered list.
import { z } from 'zod';
import { AUDIT_OUTCOMES } from '../registry/vocabulary';

const optionalText = (max: number) => z.string().trim().min(1).max(max).optional();

export const auditFilter = z.object({
  operatorId: optionalText(200),
  action: optionalText(100),
  targetId: optionalText(300),
  outcome: z.enum(AUDIT_OUTCOMES).optional(),
  /** ISO date-times: `from` inclusive, `to` exclusive. */
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
export type AuditFilter = z.infer<typeof auditFilter>;
