import assert from 'node:assert/strict';
import { test } from 'node:test';
import { refusedAddress } from './target-address.js';

const HINT = '(set NOK_WEBHOOK_ALLOW_PRIVATE_TARGETS=true to allow private targets)';

const PUBLIC = [
  '8.8.8.8',
  '1.1.1.1',
  '11.0.0.1',
  '100.63.255.255',
  '100.128.0.0',
  '169.253.255.255',
  '172.15.255.255',
  '172.32.0.0',
  '192.0.1.1',
  '192.169.0.1',
  '223.255.255.255',
  '2001:4860:4860::8888',
  '2606:4700:4700::1111',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '2002:808:808::1',
];

/** Refused unless private targets are allowed. */
const PRIVATE = [
  '127.0.0.1',
  '127.255.255.254',
  '0.0.0.0',
  '0.1.2.3',
  '10.0.0.5',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '100.64.0.1',
  '100.127.255.255',
  '169.254.1.1',
  '192.0.0.8',
  '224.0.0.1',
  '239.255.255.250',
  '240.0.0.1',
  '255.255.255.255',
  '::1',
  '::',
  '0:0:0:0:0:0:0:1',
  'fe80::1',
  'fe80::1%eth0',
  'febf:ffff::1',
  'fec0::1',
  'fc00::1',
  'fd12:3456::1',
  'ff02::1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '0:0:0:0:0:ffff:7f00:0001',
  '::ffff:10.0.0.1',
  '::ffff:c0a8:101',
  '::ffff:100.64.0.1',
  '64:ff9b::127.0.0.1',
  '64:ff9b::a00:1',
  '::127.0.0.1',
  '::8.8.8.8',
  '2002:7f00:1::',
];

/** Refused even when private targets are allowed. */
const METADATA = [
  '169.254.169.254',
  '169.254.170.2',
  '100.100.100.200',
  '192.0.0.192',
  'fd00:ec2::254',
  'FD00:EC2:0:0:0:0:0:254',
  '::ffff:169.254.169.254',
  '::ffff:a9fe:a9fe',
  '::ffff:100.100.100.200',
  '64:ff9b::a9fe:a9fe',
  '64:ff9b::169.254.170.2',
  '2002:a9fe:a9fe::',
];

const NOT_ADDRESSES = ['example.com', '', '0177.0.0.1', '1.2.3', '256.1.1.1', '[::1]', '::1::2'];

test('public addresses may be targets', () => {
  for (const address of PUBLIC) {
    assert.equal(refusedAddress(address, false), null, address);
    assert.equal(refusedAddress(address, true), null, address);
  }
});

test('private, loopback, link-local, multicast and reserved addresses are refused unless allowed', () => {
  for (const address of PRIVATE) {
    const reason = refusedAddress(address, false);
    assert.ok(reason?.endsWith(HINT), `${address}: ${reason}`);
    assert.equal(refusedAddress(address, true), null, address);
  }
});

test('cloud metadata addresses are refused even when private targets are allowed', () => {
  for (const address of METADATA) {
    for (const allowPrivate of [false, true]) {
      const reason = refusedAddress(address, allowPrivate);
      assert.ok(reason?.includes('a cloud metadata address'), `${address}: ${reason}`);
      assert.ok(!reason?.includes(HINT), `${address}: allowing private targets would not help`);
    }
  }
});

test('what is not an IP address is refused', () => {
  for (const text of NOT_ADDRESSES) {
    assert.equal(refusedAddress(text, true), 'not an IP address', text);
  }
});

test('a refusal names the kind of address, and the IPv4 address an IPv6 one carries', () => {
  assert.equal(refusedAddress('10.0.0.5', false), `a private address ${HINT}`);
  assert.equal(refusedAddress('::1', false), `a loopback address ${HINT}`);
  assert.equal(refusedAddress('100.64.0.1', false), `a carrier-grade NAT address ${HINT}`);
  assert.equal(
    refusedAddress('::ffff:7f00:1', false),
    `an IPv6 form of 127.0.0.1, a loopback address ${HINT}`,
  );
  assert.equal(
    refusedAddress('64:ff9b::a9fe:a9fe', true),
    'an IPv6 form of 169.254.169.254, a cloud metadata address, never a webhook target',
  );
});
