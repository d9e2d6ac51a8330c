// Another agent's `hooks` object, event by event: matcher groups with nested `hooks:` lists
// (Claude Code, Codex, Gemini CLI) or flat `- command:` entries (Cursor), each handler handed to
// handlers.ts. Unknown events and malformed groups are reported, never dropped silently.

import { toOurEvent, toolFamily } from '../dialects/names.js';
import { isPlainObject } from '../json.js';
import type { ConfigPath } from '../config/source.js';
import { commandKeyOf } from '../dialects/agents/module.js';
import { commandsUnder, convertMatcher, diag, DROPPED_FIELDS, importHandler, type Ctx } from './handlers.js';

export function importGroups(ctx: Ctx, hooks: Record<string, unknown>): void {
  for (const [theirEvent, groups] of Object.entries(hooks)) {
    const at: ConfigPath = [...(ctx.root ?? ['hooks']), theirEvent];
    const event = toOurEvent(ctx.maps, ctx.from.agent.name, theirEvent);
    if (event === null) {
      const commands = commandsUnder(groups, false);
      diag(
        ctx,
        'warning',
        at,
        `${ctx.from.format.writer} event '${theirEvent}' has no Hermes counterpart; not imported${commands.length ? `: ${commands.join(', ')}` : ''}`,
        true,
      );
      continue;
    }
    if (!Array.isArray(groups)) {
      diag(ctx, 'warning', at, `hooks.${theirEvent} must be a list of matcher groups; not imported`);
      continue;
    }
    groups.forEach((group, gi) => {
      const gAt: ConfigPath = [...at, gi];
      if (!isPlainObject(group)) {
        diag(ctx, 'warning', gAt, `matcher group must be an object with a hooks list; not imported`);
        return;
      }
      if (group['sequential'] === true) {
        diag(
          ctx,
          'warning',
          [...gAt, 'sequential'],
          `sequential cannot be carried over: hermes-hooks runs an event's hooks concurrently and each sees the original input`,
        );
      }
      if (group['async'] === true) diag(ctx, 'warning', [...gAt, 'async'], DROPPED_FIELDS['async']![1]);
      const matcher = convertMatcher(ctx, group['matcher'], [...gAt, 'matcher'], theirEvent, event);
      if (matcher === false) return;
      if (ctx.flatEntries && group['hooks'] === undefined && typeof group['command'] === 'string') {
        importHandler(ctx, group, gAt, event, matcher);
        return;
      }
      if (!Array.isArray(group['hooks'])) {
        diag(ctx, 'warning', [...gAt, 'hooks'], `matcher group has no hooks list; not imported`);
        return;
      }
      group['hooks'].forEach((handler, hi) => importHandler(ctx, handler, [...gAt, 'hooks', hi], event, matcher));
    });
  }
}

/** Family events select tools by event (Cursor's beforeShellExecution); we select them with a matcher. */
function familyMatcherOf(ctx: Ctx, theirEvent: string): string | null {
  const family = toolFamily(ctx.from.agent.name, theirEvent);
  if (family === undefined) return null;
  return family.tools === 'mcp' ? 'mcp_.*' : family.tools.join('|');
}

export function importFlat(ctx: Ctx, data: Record<string, unknown>, hooks: Record<string, unknown>): void {
  if (!ctx.flatEntries && ctx.from.agent.versionedConfig && data['version'] !== 1) diag(ctx, 'warning', ['version'], `expected version 1; read as version 1`);
  for (const [theirEvent, entries] of Object.entries(hooks)) {
    const at: ConfigPath = [...(ctx.root ?? ['hooks']), theirEvent];
    const event = toOurEvent(ctx.maps, ctx.from.agent.name, theirEvent);
    if (event === null) {
      const commands = commandsUnder(entries, true, commandKeyOf(ctx.from.agent));
      diag(
        ctx,
        'warning',
        at,
        `${ctx.from.format.writer} event '${theirEvent}' has no Hermes counterpart; not imported${commands.length ? `: ${commands.join(', ')}` : ''}`,
        true,
      );
      continue;
    }
    if (!Array.isArray(entries)) {
      diag(ctx, 'warning', at, `hooks.${theirEvent} must be a list of hooks; not imported`);
      continue;
    }
    const familyMatcher = familyMatcherOf(ctx, theirEvent);
    entries.forEach((entry, i) => {
      const eAt: ConfigPath = [...at, i];
      let matcher = familyMatcher;
      if (isPlainObject(entry) && entry['matcher'] !== undefined) {
        if (familyMatcher !== null) {
          diag(ctx, 'warning', [...eAt, 'matcher'], `matcher on ${theirEvent} cannot be carried over; the hook runs for every ${familyMatcher} call`);
        } else {
          const converted = convertMatcher(ctx, entry['matcher'], [...eAt, 'matcher'], theirEvent, event);
          matcher = converted === false ? null : converted;
        }
      }
      importHandler(ctx, entry, eAt, event, matcher);
    });
  }
}
