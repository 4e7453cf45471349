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

  it.each([
    ['organize.localhost', 'organize3'],
    ['app.organize.com.br', 'organize3'],
    ['EXOREADER.example', 'exoreader'],
    ['remotediskette.example', 'rdisk'],
    ['remote_diskette.example', 'rdisk'],
    ['Remote.Diskette.example', 'rdisk'],
    ['rdisk.localhost', 'rdisk'],
    ['127.0.0.1', null],
    ['oficina.example', null],
  ])('reads the module of host %s', (host, want) => {
    expect(moduleFromHost(host)).toBe(want);
  });

  it('ignores a saved value that is no module, and a blank host', () => {
    expect(resolveModule('', '')).toBe('ticket');
    expect(resolveModule('textnotes', '')).toBe('textnotes');
    expect(resolveModule('rdisk', 'organize.example')).toBe('rdisk');
  });

  it('offers ticket and rdisk always, others by host or Group flag (SPEC §6)', () => {
    expect(availableModules('oficina.app', {})).toEqual(['ticket', 'rdisk']);
    expect(availableModules('oficina.app', { textnotes: true, exoreader: true })).toEqual(['ticket', 'exoreader', 'textnotes', 'rdisk']);
    expect(availableModules('organize.app', {})).toEqual(['ticket', 'organize3', 'rdisk']);
    expect(availableModules('organize.app', { organize3: false })).toEqual(['ticket', 'organize3', 'rdisk']);
    expect(availableModules('127.0.0.1', { organize3: true })).toEqual(['ticket', 'organize3', 'rdisk']);
    expect(availableModules('rdisk.example', { rdisk: false })).toEqual(['ticket', 'rdisk']);
    expect(availableModules('exoreader.example', { textnotes: true })).toEqual(['ticket', 'exoreader', 'textnotes', 'rdisk']);
  });
});
