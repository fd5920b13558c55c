// kannel.conf for one bearerbox with one or more SMPP connections to our SMSC (smsc groups sharing
// one smsc-id), and one smsbox taking sendsms requests: everything on 127.0.0.1, logs in the
// test's temp dir, no message store.
import { join } from 'node:path';

export interface KannelPorts {
  readonly admin: number;
  readonly smsbox: number;
  readonly sendsms: number;
}

export const KANNEL_ADMIN_PASSWORD = 'interop';
export const SENDSMS_USER = { username: 'nok', password: 'nok' } as const;

export interface KannelTuning {
  /** bearerbox log level: 0 (debug: every PDU) to 4. */
  readonly logLevel: number;
  /** SMPP transceiver binds to our SMSC (smsc groups sharing one smsc-id). */
  readonly binds: number;
  readonly enquireLinkIntervalSeconds: number;
}

/** The interop test's tuning: one bind, every PDU in the log, a keep-alive every second. */
export const KANNEL_TEST_TUNING: KannelTuning = {
  logLevel: 0,
  binds: 1,
  enquireLinkIntervalSeconds: 1,
};

/** The config text; `dir` holds the log files. */
export function kannelConfig(
  dir: string,
  smscPort: number,
  ports: KannelPorts,
  tuning: KannelTuning = KANNEL_TEST_TUNING,
): string {
  const smsc = smscGroup(smscPort, tuning.enquireLinkIntervalSeconds);
  return `
group = core
admin-port = ${ports.admin}
admin-interface = 127.0.0.1
admin-password = ${KANNEL_ADMIN_PASSWORD}
admin-allow-ip = "127.0.0.1"
smsbox-port = ${ports.smsbox}
smsbox-interface = 127.0.0.1
box-allow-ip = "127.0.0.1"
# Debug: the log then holds every PDU, which is how the test sees the enquire_link exchange.
log-file = "${join(dir, 'bearerbox.log')}"
log-level = ${tuning.logLevel}
access-log = "${join(dir, 'access.log')}"
dlr-storage = internal

${Array.from({ length: tuning.binds }, () => smsc).join('\n')}
group = smsbox
bearerbox-host = 127.0.0.1
bearerbox-port = ${ports.smsbox}
sendsms-port = ${ports.sendsms}
sendsms-interface = 127.0.0.1
log-file = "${join(dir, 'smsbox.log')}"
log-level = ${Math.max(1, tuning.logLevel)}

group = sendsms-user
username = ${SENDSMS_USER.username}
password = ${SENDSMS_USER.password}
user-allow-ip = "127.0.0.1"

group = sms-service
keyword = default
text = "No service here"
`;
}

function smscGroup(smscPort: number, enquireLinkIntervalSeconds: number): string {
  return `group = smsc
smsc = smpp
smsc-id = nok
host = 127.0.0.1
port = ${smscPort}
transceiver-mode = true
system-type = "interop"
smsc-username = nok
smsc-password = nok
# Our SMSC's ids are lower-case hexadecimal in submit_sm_resp and in the receipt alike: bit 0
# says hex for submit_sm_resp, bit 1 hex for deliver_sm (smsc_smpp.c); Kannel turns both into
# the same decimal number to match a receipt to its message.
msg-id-type = 0x03
# Default 10: a hundred messages go faster with the window our SMSC allows.
max-pending-submits = 100
# Default 30 s, longer than the test: every second, so that the test sees our answer.
enquire-link-interval = ${enquireLinkIntervalSeconds}
reconnect-delay = 1
`;
}
