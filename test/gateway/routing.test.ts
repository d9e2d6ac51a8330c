import { describe, expect, it } from 'vitest';
import { handlersFor } from '../../src/gateway/_routing.js';

const h = (name: string, ...events: string[]) => ({ name, events });

describe('handlersFor', () => {
  const all = [h('wild', 'command:*'), h('model', 'command:model'), h('agent', 'agent'), h('both', 'command:model', 'command:*'), h('steps', 'agent:step')];
  it('exact subscribers first (registration order), then the prefix wildcard', () => {
    expect(handlersFor(all, 'command:model').map((x) => x.name)).toEqual(['model', 'both', 'wild', 'both']);
    expect(handlersFor(all, 'command:reset').map((x) => x.name)).toEqual(['wild', 'both']);
  });
  it('prefix is the text before the first colon; a bare name matches nothing', () => {
    expect(handlersFor(all, 'command:model:extra').map((x) => x.name)).toEqual(['wild', 'both']);
    expect(handlersFor(all, 'agent:start').map((x) => x.name)).toEqual([]);
    expect(handlersFor(all, 'agent:step').map((x) => x.name)).toEqual(['steps']);
    expect(handlersFor(all, 'agent').map((x) => x.name)).toEqual(['agent']);
    expect(handlersFor(all, 'command:*').map((x) => x.name)).toEqual(['wild', 'both']);
  });
});
