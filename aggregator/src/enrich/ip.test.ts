import { describe, expect, it } from 'vitest';
import { publicAddress } from './ip.js';

describe('publicAddress', () => {
  it('keeps a public IPv4 address', () => {
    expect(publicAddress('77.88.55.88')).toBe('77.88.55.88');
  });

  it('trims spaces and drops an IPv4 port', () => {
    expect(publicAddress(' 8.8.8.8:443 ')).toBe('8.8.8.8');
  });

  it('keeps a public IPv6 address, lower-cased', () => {
    expect(publicAddress('2A02:6B8::2:242')).toBe('2a02:6b8::2:242');
  });

  it('drops brackets and a zone', () => {
    expect([publicAddress('[2a02:6b8::2:242]'), publicAddress('2a02:6b8::2:242%eth0')]).toEqual(['2a02:6b8::2:242', '2a02:6b8::2:242']);
  });

  it('answers IPv4-mapped IPv6 as IPv4, in the short and in the uWebSockets.js full form', () => {
    expect([
      publicAddress('::ffff:77.88.55.88'),
      publicAddress('::ffff:4d58:3758'),
      publicAddress('0000:0000:0000:0000:0000:ffff:4d58:3758'),
    ]).toEqual(['77.88.55.88', '77.88.55.88', '77.88.55.88']);
  });

  it('gives null for loopback, private, CGNAT, link-local, documentation, multicast and reserved IPv4', () => {
    const addresses = ['127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '100.64.0.1', '169.254.1.1', '0.0.0.0', '192.0.2.1', '198.51.100.7', '203.0.113.9', '224.0.0.1', '255.255.255.255'];
    expect(addresses.map(publicAddress)).toEqual(addresses.map(() => null));
  });

  it('keeps the public neighbours of the private blocks', () => {
    expect(['172.15.255.255', '172.32.0.1', '100.128.0.1', '11.0.0.1'].map(publicAddress)).toEqual(['172.15.255.255', '172.32.0.1', '100.128.0.1', '11.0.0.1']);
  });

  it('gives null for IPv6 loopback, unspecified, unique local, link-local, multicast, documentation and mapped private', () => {
    const addresses = ['::1', '::', 'fd00::1', 'fc12:3456::1', 'fe80::1', 'ff02::1', '2001:db8::1', '::ffff:127.0.0.1', '0000:0000:0000:0000:0000:ffff:7f00:0001'];
    expect(addresses.map(publicAddress)).toEqual(addresses.map(() => null));
  });

  it('gives null for what is not an address', () => {
    expect(['', 'unknown', '1.2.3', '300.1.1.1', 'example.com', '::g'].map(publicAddress)).toEqual([null, null, null, null, null, null]);
  });
});
