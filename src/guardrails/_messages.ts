// The words a guardrail verdict puts in front of the model. Every message names its detector.

import type { GuardrailDetector } from './types.js';

export interface LoopFact {
  detector: GuardrailDetector;
  tool: string;
  count: number;
  /** cycle only: the tools of one repetition, in order. */
  cycleTools?: readonly string[];
}

function times(n: number): string {
  return n === 1 ? 'once' : `${n} times`;
}

function fact(f: LoopFact): string {
  switch (f.detector) {
    case 'exact_failure':
      return `${f.tool} has failed ${times(f.count)} with the same arguments`;
    case 'idempotent_no_progress':
      return `${f.tool} has returned the same result ${times(f.count)} for the same arguments, without progress`;
    case 'same_tool_failure':
      return `${f.tool} has failed ${times(f.count)} in a row (with any arguments)`;
    case 'cycle': {
      const tools = f.cycleTools ?? [];
      return `the same sequence of ${tools.length} calls (${tools.join(' → ')}) has repeated ${times(f.count)}`;
    }
  }
}

const ADVICE: Record<GuardrailDetector, string> = {
  exact_failure: 'Do not repeat this exact call; change the arguments or try a different approach.',
  idempotent_no_progress: 'Repeating it will not change the result; use what you already have or try something different.',
  same_tool_failure: 'Step back and reconsider the approach before calling this tool again.',
  cycle: 'Break the cycle: do something different or summarise what is blocking you.',
};

export function warningMessage(f: LoopFact): string {
  return `Tool loop warning (${f.detector}): ${fact(f)}. ${ADVICE[f.detector]}`;
}

export function stopMessage(f: LoopFact): string {
  return (
    `Tool loop detected (${f.detector}): ${fact(f)}. This call was not run. ` +
    'Stop and end the turn: tell the user what you tried and what is blocking you instead of retrying.'
  );
}
