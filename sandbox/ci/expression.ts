/**
 * `rules:if` expressions, as the platform evaluates them: `$VAR` (defined and not empty),
 * `==` / `!=` against strings, `null` or other variables, `=~` / `!~` against `/patterns/`
 * (RE2, through re2js, like the platform), `&&` binding tighter than `||`, and parentheses.
 * Parsing is separate from evaluation so a CI file's expressions are parsed once per plan.
 */
import { RE2JS } from 're2js';

type Operand =
  | { kind: 'var'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'pattern'; source: string; flags: string }
  | { kind: 'null' };

export type Expression =
  | Operand
  | { kind: 'compare'; op: '==' | '!=' | '=~' | '!~'; left: Operand; right: Operand }
  | { kind: 'and' | 'or'; left: Expression; right: Expression };

type Token =
  | { t: 'operand'; operand: Operand }
  | { t: 'op'; op: '==' | '!=' | '=~' | '!~' | '&&' | '||' }
  | { t: '(' }
  | { t: ')' };

/** The platform's message for any expression it cannot read. */
export const INVALID_EXPRESSION = 'invalid expression syntax';

export class ExpressionError extends Error {}

const VARIABLE = /\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/y;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i += 1;
      continue;
    }
    if (c === '(' || c === ')') {
      tokens.push({ t: c });
      i += 1;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (two === '==' || two === '!=' || two === '=~' || two === '!~' || two === '&&' || two === '||') {
      tokens.push({ t: 'op', op: two });
      i += 2;
      continue;
    }
    if (c === '$') {
      VARIABLE.lastIndex = i;
      const m = VARIABLE.exec(text);
      if (!m) throw new ExpressionError(INVALID_EXPRESSION);
      tokens.push({ t: 'operand', operand: { kind: 'var', name: m[1] ?? m[2] } });
      i = VARIABLE.lastIndex;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      if (end < 0) throw new ExpressionError(INVALID_EXPRESSION);
      tokens.push({ t: 'operand', operand: { kind: 'string', value: text.slice(i + 1, end) } });
      i = end + 1;
      continue;
    }
    if (c === '/') {
      // A pattern ends at the next unescaped slash; flags follow (i, m, s as the platform allows).
      let j = i + 1;
      let source = '';
      while (j < n && text[j] !== '/') {
        if (text[j] === '\\' && j + 1 < n) {
          source += text[j + 1] === '/' ? '/' : text.slice(j, j + 2);
          j += 2;
        } else {
          source += text[j];
          j += 1;
        }
      }
      if (j >= n) throw new ExpressionError(INVALID_EXPRESSION);
      j += 1;
      let flags = '';
      while (j < n && /[a-z]/.test(text[j])) flags += text[j++];
      if (/[^ims]/.test(flags)) throw new ExpressionError(INVALID_EXPRESSION);
      tokens.push({ t: 'operand', operand: { kind: 'pattern', source, flags } });
      i = j;
      continue;
    }
    if (text.startsWith('null', i) && !/[A-Za-z0-9_]/.test(text[i + 4] ?? '')) {
      tokens.push({ t: 'operand', operand: { kind: 'null' } });
      i += 4;
      continue;
    }
    throw new ExpressionError(INVALID_EXPRESSION);
  }
  return tokens;
}

/** Parses an expression; throws ExpressionError("invalid expression syntax") when it cannot. */
export function parseExpression(text: string): Expression {
  const tokens = tokenize(text);
  let pos = 0;
  const peek = () => tokens[pos];

  function primary(): Expression {
    const token = tokens[pos++];
    if (!token) throw new ExpressionError(INVALID_EXPRESSION);
    if (token.t === '(') {
      const inner = or();
      if (tokens[pos++]?.t !== ')') throw new ExpressionError(INVALID_EXPRESSION);
      return inner;
    }
    if (token.t !== 'operand') throw new ExpressionError(INVALID_EXPRESSION);
    const next = peek();
    if (next?.t === 'op' && (next.op === '==' || next.op === '!=' || next.op === '=~' || next.op === '!~')) {
      pos += 1;
      const right = tokens[pos++];
      if (right?.t !== 'operand') throw new ExpressionError(INVALID_EXPRESSION);
      if ((next.op === '=~' || next.op === '!~') && right.operand.kind !== 'pattern' && right.operand.kind !== 'var') {
        throw new ExpressionError(INVALID_EXPRESSION);
      }
      if (right.operand.kind === 'pattern') compilePattern(right.operand.source, right.operand.flags);
      return { kind: 'compare', op: next.op, left: token.operand, right: right.operand };
    }
    return token.operand;
  }
  /** A left-associative chain of one operator: `&&` over primaries, `||` over `&&` chains. */
  function chain(kind: 'and' | 'or', op: '&&' | '||', operand: () => Expression): Expression {
    let left = operand();
    for (let next = peek(); next?.t === 'op' && next.op === op; next = peek()) {
      pos += 1;
      left = { kind, left, right: operand() };
    }
    return left;
  }
  const and = (): Expression => chain('and', '&&', primary);
  const or = (): Expression => chain('or', '||', and);

  if (tokens.length === 0) throw new ExpressionError(INVALID_EXPRESSION);
  const expression = or();
  if (pos !== tokens.length) throw new ExpressionError(INVALID_EXPRESSION);
  return expression;
}

const patternCache = new Map<string, RE2JS>();

/** Compiles (once, cached) an RE2 pattern with /flags; throws ExpressionError when RE2 refuses it. */
export function compilePattern(source: string, flags = ''): RE2JS {
  const key = `${flags}/${source}`;
  let compiled = patternCache.get(key);
  if (!compiled) {
    let bits = 0;
    if (flags.includes('i')) bits |= RE2JS.CASE_INSENSITIVE;
    if (flags.includes('m')) bits |= RE2JS.MULTILINE;
    if (flags.includes('s')) bits |= RE2JS.DOTALL;
    try {
      compiled = RE2JS.compile(source, bits);
    } catch {
      throw new ExpressionError(INVALID_EXPRESSION);
    }
    if (patternCache.size > 2000) patternCache.clear();
    patternCache.set(key, compiled);
  }
  return compiled;
}

type Value = string | null | { pattern: RE2JS };

function operandValue(operand: Operand, variables: Record<string, string>): Value {
  switch (operand.kind) {
    case 'var':
      return Object.hasOwn(variables, operand.name) ? variables[operand.name] : null;
    case 'string':
      return operand.value;
    case 'null':
      return null;
    case 'pattern':
      return { pattern: compilePattern(operand.source, operand.flags) };
  }
}

/** A variable's value used on the right of =~ is read as a /pattern/ (the platform does since 15.0). */
function asPattern(value: Value): RE2JS | null {
  if (value === null) return null;
  if (typeof value !== 'string') return value.pattern;
  const m = /^\/(.*)\/([ims]*)$/s.exec(value);
  try {
    return m ? compilePattern(m[1], m[2]) : compilePattern(RE2JS.quote(value));
  } catch {
    return null;
  }
}

function truthy(value: Value): boolean {
  return value !== null && (typeof value !== 'string' || value.length > 0);
}

/** Evaluates a parsed expression; never throws. */
export function evaluateExpression(expression: Expression, variables: Record<string, string>): boolean {
  switch (expression.kind) {
    case 'and':
      return evaluateExpression(expression.left, variables) && evaluateExpression(expression.right, variables);
    case 'or':
      return evaluateExpression(expression.left, variables) || evaluateExpression(expression.right, variables);
    case 'compare': {
      const left = operandValue(expression.left, variables);
      const right = operandValue(expression.right, variables);
      if (expression.op === '==' || expression.op === '!=') {
        const equal = left === right;
        return expression.op === '==' ? equal : !equal;
      }
      const pattern = asPattern(right);
      const matched = pattern !== null && typeof left === 'string' && pattern.test(left);
      return expression.op === '=~' ? matched : !matched;
    }
    default:
      return truthy(operandValue(expression, variables));
  }
}

/** Parses and evaluates in one call: `{ok:false}` carries the platform's message. */
export function matchesRule(text: string, variables: Record<string, string>): { ok: true; value: boolean } | { ok: false; error: string } {
  try {
    return { ok: true, value: evaluateExpression(parseExpression(text), variables) };
  } catch (error) {
    if (error instanceof ExpressionError) return { ok: false, error: error.message };
    throw error;
  }
}
