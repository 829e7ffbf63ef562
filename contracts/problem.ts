import { z } from 'zod';

/** RFC 9457 problem details, the body of every API error. */
export const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().optional(),
  code: z.string(),
  /** Field errors: field name → message (validation failures only). */
  errors: z.record(z.string(), z.string()).optional(),
});
export type Problem = z.infer<typeof problemSchema>;
