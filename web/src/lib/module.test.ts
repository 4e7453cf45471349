import { describe, expect, it } from 'vitest';
import { availableModules, moduleFromHost, resolveModule } from './module';

describe('active module', () => {
  it('prefers the saved choice, then the host, then ticket', () => {
    expect(resolveModule('exoreader', 'organize.example.com')).toBe('exoreader');
    expect(resolveModule(null, 'organize.example.com')).toBe('organize3');
    expect(resolveModule('bogus', 'www.exoreader.io')).toBe('exoreader');
    expect(resolveModule(null, 'remote-diskette.example')).toBe('rdisk');
    expect(resolveModule(null, 'rdisk.example')).toBe('rdisk');
    expect(resolveModule(null, 'oficina.app')).toBe('ticket');
    expect(moduleFromHost('localhost')).toBeNull();
  });

  it('offers ticket and rdisk always, others by host or Group flag (SPEC §6)', () => {
    expect(availableModules('oficina.app', {})).toEqual(['ticket', 'rdisk']);
    expect(availableModules('oficina.app', { textnotes: true, exoreader: true })).toEqual(['ticket', 'exoreader', 'textnotes', 'rdisk']);
    expect(availableModules('organize.app', {})).toEqual(['ticket', 'organize3', 'rdisk']);
  });
});
