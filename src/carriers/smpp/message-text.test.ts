import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countParts, splitParts } from '../../domain/messages/message-parts.js';
import { decodeMessageText, encodeMessageText } from './message-text.js';

const thai = 'สวัสดีครับ'; // 10 UTF-16 units, none in the GSM alphabet

function latinOf(length: number): string {
  return 'abcdefghij'.repeat(100).slice(0, length);
}

function thaiOf(length: number): string {
  return thai.repeat(100).slice(0, length);
}

function ucs2(text: string): Buffer {
  return Buffer.from(text, 'utf16le').swap16();
}

function ascii(text: string): Buffer {
  return Buffer.from(text, 'ascii'); // a-z have the same value as GSM septets
}

function udh(reference: number, total: number, seq: number): Buffer {
  return Buffer.from([0x05, 0x00, 0x03, reference, total, seq]);
}

describe('message text on the wire', () => {
  it('sends 70 Latin characters as one GSM part without UDH', () => {
    const encoded = encodeMessageText(latinOf(70), 7);
    assert.equal(encoded.dataCoding, 0);
    assert.equal(encoded.esmClass, 0);
    assert.deepEqual(encoded.parts, [ascii(latinOf(70))]);
  });

  it('splits Latin text of 71, 134, 135 and 1,000 characters like the billing split', () => {
    for (const [length, count] of [
      [71, 2],
      [134, 2],
      [135, 3],
      [1000, 15],
    ] as const) {
      const content = latinOf(length);
      const encoded = encodeMessageText(content, 200);
      assert.equal(encoded.dataCoding, 0);
      assert.equal(encoded.esmClass, 0x40);
      assert.equal(encoded.parts.length, count, `length ${length}`);
      assert.equal(encoded.parts.length, countParts(content));
      splitParts(content).forEach((text, i) => {
        assert.deepEqual(encoded.parts[i], Buffer.concat([udh(200, count, i + 1), ascii(text)]));
      });
    }
  });

  it('sends 70 Thai characters as one UCS-2 part of 140 octets', () => {
    const encoded = encodeMessageText(thaiOf(70), 0);
    assert.equal(encoded.dataCoding, 8);
    assert.equal(encoded.esmClass, 0);
    assert.deepEqual(encoded.parts, [ucs2(thaiOf(70))]);
    assert.equal(encoded.parts[0]!.length, 140);
    assert.deepEqual([...encoded.parts[0]!.subarray(0, 4)], [0x0e, 0x2a, 0x0e, 0x27]); // ส ว
  });

  it('splits Thai text of 71, 134, 135 and 1,000 characters like the billing split', () => {
    for (const [length, count] of [
      [71, 2],
      [134, 2],
      [135, 3],
      [1000, 15],
    ] as const) {
      const content = thaiOf(length);
      const encoded = encodeMessageText(content, 255);
      assert.equal(encoded.dataCoding, 8);
      assert.equal(encoded.esmClass, 0x40);
      assert.equal(encoded.parts.length, count, `length ${length}`);
      splitParts(content).forEach((text, i) => {
        assert.deepEqual(encoded.parts[i], Buffer.concat([udh(255, count, i + 1), ucs2(text)]));
      });
      assert.equal(encoded.parts[0]!.length, 140);
    }
  });

  it('writes the extension characters as escape + code', () => {
    const encoded = encodeMessageText('^{}\\[~]|€', 0);
    assert.equal(encoded.dataCoding, 0);
    assert.deepEqual(
      encoded.parts[0],
      Buffer.from([
        0x1b, 0x14, 0x1b, 0x28, 0x1b, 0x29, 0x1b, 0x2f, 0x1b, 0x3c, 0x1b, 0x3d, 0x1b, 0x3e, 0x1b,
        0x40, 0x1b, 0x65,
      ]),
    );
  });

  it('maps the default alphabet characters that differ from ASCII', () => {
    const encoded = encodeMessageText('@£$¥èÉΔ¤¡§¿à\r\n', 0);
    assert.deepEqual(
      encoded.parts[0],
      Buffer.from([0x00, 0x01, 0x02, 0x03, 0x04, 0x1f, 0x10, 0x24, 0x40, 0x5f, 0x60, 0x7f, 13, 10]),
    );
  });

  it('fits 70 extension characters in 140 octets, and 67 of them per part with the UDH', () => {
    assert.equal(encodeMessageText('€'.repeat(70), 0).parts[0]!.length, 140);
    const long = encodeMessageText('€'.repeat(135), 0);
    assert.deepEqual(
      long.parts.map((p) => p.length),
      [140, 140, 8],
    );
  });

  it('falls back to UCS-2 for a character outside the GSM alphabet', () => {
    assert.equal(encodeMessageText('price: 5 ₽', 0).dataCoding, 8);
    assert.equal(encodeMessageText('`backtick`', 0).dataCoding, 8);
    assert.equal(encodeMessageText('tab\there', 0).dataCoding, 8);
  });

  it('keeps an emoji whole when it straddles a part boundary', () => {
    const content = 'a'.repeat(66) + '😀' + 'b'.repeat(10);
    const encoded = encodeMessageText(content, 1);
    assert.equal(encoded.dataCoding, 8);
    assert.equal(encoded.parts.length, 2);
    assert.deepEqual(encoded.parts[0], Buffer.concat([udh(1, 2, 1), ucs2('a'.repeat(66))]));
    assert.deepEqual(encoded.parts[1]!.subarray(6, 10), Buffer.from([0xd8, 0x3d, 0xde, 0x00]));
    const decoded = encoded.parts.map((p) => decodeMessageText(8, p, 0x40).text).join('');
    assert.equal(decoded, content);
  });

  it('never writes a payload over 140 octets, for any length and alphabet', () => {
    for (const unit of ['a', '€', 'ส', '😀a']) {
      for (let length = 1; length <= 400; length++) {
        const content = unit.repeat(length).slice(0, length);
        const encoded = encodeMessageText(content, 9);
        assert.equal(encoded.parts.length, countParts(content));
        for (const part of encoded.parts) assert.ok(part.length <= 140, `${unit} × ${length}`);
      }
    }
  });

  it('refuses a reference number outside 0-255', () => {
    assert.throws(() => encodeMessageText('hi', 256), RangeError);
    assert.throws(() => encodeMessageText('hi', -1), RangeError);
    assert.throws(() => encodeMessageText('hi', 1.5), RangeError);
  });
});

describe('message text decoding', () => {
  it('round-trips GSM and UCS-2 text with its concatenation header', () => {
    for (const content of [latinOf(1000), thaiOf(1000), 'x{€}y'.repeat(40)]) {
      const encoded = encodeMessageText(content, 42);
      const decoded = encoded.parts.map((p) =>
        decodeMessageText(encoded.dataCoding, p, encoded.esmClass),
      );
      assert.equal(decoded.map((d) => d.text).join(''), content);
      decoded.forEach((d, i) =>
        assert.deepEqual(d.udh, { reference: 42, total: encoded.parts.length, seq: i + 1 }),
      );
    }
  });

  it('round-trips every septet of the default alphabet but the escape', () => {
    const septets = Buffer.from([...Array(128).keys()].filter((s) => s !== 0x1b));
    const text = decodeMessageText(0, septets, 0).text;
    assert.equal(text.length, 127);
    assert.ok(!text.includes('\ufffd'));
    const encoded = encodeMessageText(text, 0);
    assert.equal(encoded.dataCoding, 0);
    assert.deepEqual(Buffer.concat(encoded.parts.map((p) => p.subarray(6))), septets);
  });

  it('reads a single part without a header', () => {
    assert.deepEqual(decodeMessageText(0, Buffer.from([0x48, 0x69, 0x00]), 0), { text: 'Hi@' });
  });

  it('reads ASCII, Latin-1 and a 16-bit concatenation reference', () => {
    assert.equal(decodeMessageText(1, Buffer.from('a@b'), 0).text, 'a@b');
    assert.equal(decodeMessageText(3, Buffer.from([0x63, 0x61, 0x66, 0xe9]), 0).text, 'café');
    const payload = Buffer.concat([Buffer.from([6, 0x08, 4, 0x12, 0x34, 3, 2]), ucs2('ok')]);
    assert.deepEqual(decodeMessageText(8, payload, 0x40), {
      text: 'ok',
      udh: { reference: 0x1234, total: 3, seq: 2 },
    });
  });

  it('shows an unknown escaped code as its default character and a lone escape as a space', () => {
    assert.equal(decodeMessageText(0, Buffer.from([0x1b, 0x41, 0x1b]), 0).text, 'A ');
  });

  it('refuses a data_coding that is not text', () => {
    assert.throws(() => decodeMessageText(4, Buffer.from([1, 2]), 0), RangeError);
  });
});
