import { SYSTEM_ACTOR } from '../domain/audit/audit-actor.js';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { createAccount } from '../domain/accounts/create-account.js';
import { createApiKey } from '../domain/accounts/create-api-key.js';
import { revokeApiKey } from '../domain/accounts/revoke-api-key.js';
import { addToBlocklist, PLATFORM_SCOPE } from '../domain/contacts/add-to-blocklist.js';
import { createContactGroup } from '../domain/contacts/create-contact-group.js';
import { addCredits } from '../domain/credits/add-credits.js';
import { createSender } from '../domain/senders/create-sender.js';
import { API_KEY_SCOPES, SENDER_STATUSES } from '../domain/statuses.js';
import { createTemplate } from '../domain/templates/create-template.js';
import { createPlatformAdmin } from '../domain/users/create-platform-admin.js';
import {
  flag,
  integerList,
  optionalInteger,
  optionalString,
  requiredInteger,
  requiredString,
  stringList,
  UsageError,
} from './parse-args.js';
import type { AdminCommand } from './admin-command.js';
import { WEBHOOK_COMMANDS } from './webhook-commands.js';

/**
 * The file's lines, read only once iteration starts: a readline interface made earlier would
 * emit (and lose) lines while the use case still awaits the database.
 */
async function* linesOf(file: FileHandle): AsyncGenerator<string> {
  for await (const line of file.readLines()) yield line;
}

/** The first line of a file, without its line ending: a password kept out of the shell's history. */
async function readPasswordFile(path: string): Promise<string> {
  const text = await readFile(path, 'utf8').catch((error: unknown) => {
    throw new Error(`cannot read ${path} (${(error as Error).message}); check --password-file`, {
      cause: error,
    });
  });
  return text.split(/\r?\n/, 1)[0]!;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const ADMIN_COMMANDS: readonly AdminCommand[] = [
  {
    words: 'account create',
    usage: '--name N [--credits C] [--price-per-part P]',
    summary:
      'a customer account, with opening credits (default 0) and credits per part (default 1)',
    options: {
      name: { type: 'string' },
      credits: { type: 'string' },
      'price-per-part': { type: 'string' },
    },
    prepare(parsed) {
      const name = requiredString(parsed, 'name');
      const credits = optionalInteger(parsed, 'credits');
      const pricePerPart = optionalInteger(parsed, 'price-per-part');
      return async (store, nowMs) => {
        const account = await createAccount(store, {
          name,
          credits,
          pricePerPart,
          nowMs,
          actor: SYSTEM_ACTOR,
        });
        const { id, balance } = account;
        return {
          json: { id, name: account.name, balance, pricePerPart: account.pricePerPart },
          text: `Created account ${id} "${account.name}": ${plural(balance, 'credit')}, ${plural(account.pricePerPart, 'credit')} per part.`,
        };
      };
    },
  },
  {
    words: 'key create',
    usage: `--account A --scope S [--scope S2] [--name N]`,
    summary: `an API key (scopes: ${API_KEY_SCOPES.join(', ')}); the key is shown once`,
    options: {
      account: { type: 'string' },
      scope: { type: 'string', multiple: true },
      name: { type: 'string' },
    },
    prepare(parsed) {
      const accountId = requiredInteger(parsed, 'account');
      const scopes = stringList(parsed, 'scope');
      if (scopes.length === 0) throw new UsageError('--scope is required (give it once per scope)');
      const name = optionalString(parsed, 'name');
      return async (store, nowMs) => {
        const { record, key } = await createApiKey(store, {
          accountId,
          scopes,
          name,
          nowMs,
          actor: SYSTEM_ACTOR,
        });
        return {
          json: {
            id: record.id,
            accountId: record.accountId,
            key,
            prefix: record.prefix,
            scopes: record.scopes,
          },
          text:
            `Created API key ${record.id} for account ${record.accountId} (scopes: ${record.scopes.join(' ')}).\n` +
            `Key, shown only this once, store it now:\n${key}`,
        };
      };
    },
  },
  {
    words: 'key revoke',
    usage: '--key-id K',
    summary: 'revoke an API key; its next request answers 401',
    options: { 'key-id': { type: 'string' } },
    prepare(parsed) {
      const keyId = requiredInteger(parsed, 'key-id');
      return async (store, nowMs) => {
        const { record, alreadyRevoked } = await revokeApiKey(store, {
          keyId,
          nowMs,
          actor: SYSTEM_ACTOR,
        });
        return {
          json: { id: record.id, revoked: true },
          text: alreadyRevoked
            ? `API key ${record.id} was already revoked.`
            : `Revoked API key ${record.id}.`,
        };
      };
    },
  },
  {
    words: 'sender create',
    usage: `--account A --name N [--status ${SENDER_STATUSES.join('|')}] [--share-with B]...`,
    summary: 'a sender name (unique platform-wide; default status pending), optionally shared',
    options: {
      account: { type: 'string' },
      name: { type: 'string' },
      status: { type: 'string' },
      'share-with': { type: 'string', multiple: true },
    },
    prepare(parsed) {
      const accountId = requiredInteger(parsed, 'account');
      const name = requiredString(parsed, 'name');
      const status = optionalString(parsed, 'status');
      const shareWith = integerList(parsed, 'share-with');
      return async (store, nowMs) => {
        const { sender, sharedWith } = await createSender(store, {
          accountId,
          name,
          status,
          shareWith,
          nowMs,
        });
        const shares =
          sharedWith.length > 0 ? `; shared with account ${sharedWith.join(', ')}` : '';
        return {
          json: {
            id: sender.id,
            name: sender.name,
            status: sender.status,
            accountId: sender.accountId,
            sharedWith,
          },
          text: `Created sender ${sender.name} (id ${sender.id}) for account ${sender.accountId}, status ${sender.status}${shares}.`,
        };
      };
    },
  },
  {
    words: 'credits add',
    usage: '--account A --amount C [--note T]',
    summary: "top up an account (a 'top-up' ledger row)",
    options: { account: { type: 'string' }, amount: { type: 'string' }, note: { type: 'string' } },
    prepare(parsed) {
      const accountId = requiredInteger(parsed, 'account');
      const amount = requiredInteger(parsed, 'amount');
      const note = optionalString(parsed, 'note');
      return async (store, nowMs) => {
        const result = await addCredits(store, { accountId, amount, note, nowMs });
        return {
          json: { accountId: result.accountId, balance: result.balance },
          text: `Added ${plural(amount, 'credit')} to account ${accountId}; balance ${result.balance}.`,
        };
      };
    },
  },
  {
    words: 'template create',
    usage: '--account A --name N --body B',
    summary: 'a message template; {{name}} placeholders are filled by `variables` on send',
    options: { account: { type: 'string' }, name: { type: 'string' }, body: { type: 'string' } },
    prepare(parsed) {
      const accountId = requiredInteger(parsed, 'account');
      const name = requiredString(parsed, 'name');
      const body = requiredString(parsed, 'body');
      return async (store, nowMs) => {
        const { template, variables } = await createTemplate(store, {
          accountId,
          name,
          body,
          nowMs,
        });
        return {
          json: { id: template.id, name: template.name, body: template.body, variables },
          text: `Created template ${template.id} "${template.name}" for account ${accountId}; variables: ${variables.length > 0 ? variables.join(', ') : 'none'}.`,
        };
      };
    },
  },
  {
    words: 'group create',
    usage: '--account A --name N --file numbers.csv',
    summary: 'a contact group from a file: one number per line, or CSV with the number first',
    options: { account: { type: 'string' }, name: { type: 'string' }, file: { type: 'string' } },
    prepare(parsed) {
      const accountId = requiredInteger(parsed, 'account');
      const name = requiredString(parsed, 'name');
      const path = requiredString(parsed, 'file');
      return async (store, nowMs) => {
        const file = await open(path).catch((error: unknown) => {
          throw new Error(
            `cannot read ${path} (${(error as Error).message}); check the --file path`,
            { cause: error },
          );
        });
        try {
          const result = await createContactGroup(store, {
            accountId,
            name,
            lines: linesOf(file),
            nowMs,
          });
          const { group, imported, duplicates, invalid, invalidSamples } = result;
          const samples = invalidSamples.map((s) => `line ${s.line}: "${s.value}"`).join(', ');
          return {
            json: { id: group.id, name: group.name, imported, duplicates, invalid, invalidSamples },
            text:
              `Created group ${group.id} "${group.name}" for account ${accountId}: ${plural(imported, 'number')} imported, ` +
              `${plural(duplicates, 'duplicate')} dropped, ${plural(invalid, 'invalid line')} skipped` +
              (samples ? ` (${samples}${invalid > invalidSamples.length ? ', …' : ''}).` : '.'),
          };
        } finally {
          await file.close();
        }
      };
    },
  },
  {
    words: 'blocklist add',
    usage: '(--account A | --platform) NUMBER...',
    summary: 'numbers never sent to, for one account or platform-wide',
    options: { account: { type: 'string' }, platform: { type: 'boolean' } },
    allowPositionals: true,
    prepare(parsed) {
      const accountId = optionalInteger(parsed, 'account');
      const platform = flag(parsed, 'platform');
      if ((accountId === undefined) === !platform)
        throw new UsageError('give exactly one of --account A or --platform');
      if (parsed.positionals.length === 0)
        throw new UsageError('give at least one NUMBER to block');
      const scope = platform ? PLATFORM_SCOPE : (accountId as number);
      const numbers = [...parsed.positionals];
      return async (store, nowMs) => {
        const result = await addToBlocklist(store, { scope, numbers, nowMs });
        const where =
          result.scope === PLATFORM_SCOPE ? 'platform-wide' : `for account ${result.scope}`;
        return {
          json: { scope: result.scope, added: result.added },
          text: `Blocked ${plural(result.added, 'new number')} ${where}.`,
        };
      };
    },
  },
  {
    words: 'user create',
    usage: '--admin --email E --name N [--password-file F]',
    summary:
      'a platform admin, with a generated password shown once (or the first line of a file); TOTP enrolment follows at first sign-in',
    options: {
      admin: { type: 'boolean' },
      email: { type: 'string' },
      name: { type: 'string' },
      'password-file': { type: 'string' },
    },
    prepare(parsed) {
      // Account people are invited from the console by an admin or an owner, never made here.
      if (!flag(parsed, 'admin')) {
        throw new UsageError('only platform admins are made here: give --admin');
      }
      const email = requiredString(parsed, 'email');
      const name = requiredString(parsed, 'name');
      const passwordFile = optionalString(parsed, 'password-file');
      return async (store, nowMs) => {
        const password =
          passwordFile === undefined ? undefined : await readPasswordFile(passwordFile);
        const created = await createPlatformAdmin(store, {
          email,
          name,
          password,
          nowMs,
          actor: SYSTEM_ACTOR,
        });
        const { user } = created;
        const next =
          'Sign in at /console; the first sign-in asks to set up two-factor sign-in (TOTP) with an authenticator app before anything else.';
        return {
          json: {
            id: user.id,
            email: user.email,
            name: user.name,
            role: user.role,
            ...(created.generated && { password: created.password }),
          },
          text:
            `Created platform admin ${user.id} ${user.email} ("${user.name}").\n` +
            (created.generated
              ? `Password, shown only this once, store it now:\n${created.password}\n`
              : `Password: the one in ${passwordFile}.\n`) +
            next,
        };
      };
    },
  },
  ...WEBHOOK_COMMANDS,
];
