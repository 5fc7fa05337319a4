/** Inputs of the Tools page's actions: which configured tool server (by id; never a command or URL). */
import { z } from 'zod';

export const ToolServerIdSchema = z.string().trim().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'not a tool server id');

/** Refresh one server, or every configured server when none is named. */
export const RefreshToolServersInputSchema = z.object({ serverId: ToolServerIdSchema.optional() });
