import { describe, expect, it } from 'vitest';
import { completionTrigger, insertCompletion } from './completion';

describe('[[ completion', () => {
  it('triggers after an open [[ on the same line', () => {
    expect(completionTrigger('see [[Fo', 8)).toEqual({ start: 6, query: 'Fo' });
    expect(completionTrigger('see [[', 6)).toEqual({ start: 6, query: '' });
    expect(completionTrigger('see [[Foo bar', 13)).toEqual({ start: 6, query: 'Foo bar' });
  });
  it('does not trigger once closed, piped, across lines or without [[', () => {
    expect(completionTrigger('see [[Foo]] x', 13)).toBeNull();
    expect(completionTrigger('see [[Foo|la', 12)).toBeNull();
    expect(completionTrigger('see [[Foo\nbar', 13)).toBeNull();
    expect(completionTrigger('see [Foo', 8)).toBeNull();
    expect(completionTrigger('plain', 5)).toBeNull();
  });
  it('uses the caret, not the end of the text', () => {
    expect(completionTrigger('a [[Bo and more', 6)).toEqual({ start: 4, query: 'Bo' });
  });
  it('inserts the title and closes the link', () => {
    const text = 'see [[Fo and more';
    const tr = completionTrigger(text, 8)!;
    expect(insertCompletion(text, 8, tr, 'Forklift')).toEqual({ text: 'see [[Forklift]] and more', caret: 16 });
  });
  it('reuses a ]] right after the caret', () => {
    const text = 'see [[Fo]] x';
    const tr = completionTrigger(text, 8)!;
    expect(insertCompletion(text, 8, tr, 'Forklift')).toEqual({ text: 'see [[Forklift]] x', caret: 16 });
  });
});
