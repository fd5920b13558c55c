#!/usr/bin/perl
# A small SMSC on Net::SMPP (Debian: libnet-smpp-perl), for test/interop/net-smpp.test.ts: an
# SMPP 3.4 peer that Nok did not write. Debian's example smsc.pl forks per client and answers
# every submit with the same id, so it cannot check receipts; this one serves one client at a
# time on 127.0.0.1 and:
#   - answers bind_transceiver (ESME_RINVPASWD for a wrong system_id or password),
#   - answers submit_sm with a message id of its own, or ESME_RINVDSTADR (0x0B) for
#     destinations starting with --refuse-prefix,
#   - sends each accepted submit that asks for one (registered_delivery bit 0) a delivery receipt:
#     deliver_sm, esm_class 0x04, SMPP 3.4 Appendix B text, receipted_message_id and
#     message_state TLVs, and reads its deliver_sm_resp,
#   - sends one enquire_link of its own after the bind and answers the client's,
#   - answers unbind and waits for the next client.
# It reports on stdout, one line per event, tab-separated key=value after the event name:
#   listening  port=N
#   bound      system_id=... system_type=... interface_version=N
#   submit     seq=N status=N id=... source=... dest=... dc=N esm=N rd=N sm=<hex>
#   delivered  seq=N id=...            (the receipt's deliver_sm went out)
#   deliver_sm_resp seq=N status=N
#   enquire_link seq=N                 (from the client)
#   enquire_link_resp seq=N            (to ours)
#   unbind     seq=N
#   closed
# It exits when its parent does (the test kills it by pid; this is for a test that crashed).
#
#   perl net-smpp-server.pl [--port N] [--system-id ID] [--password PW] [--refuse-prefix DIGITS]
use strict;
use warnings;
use Getopt::Long;
use Net::SMPP;
use POSIX qw(strftime);

my $port          = 0;
my $system_id     = 'nok';
my $password      = 'secret';
my $refuse_prefix = '';
GetOptions(
    'port=i'          => \$port,
    'system-id=s'     => \$system_id,
    'password=s'      => \$password,
    'refuse-prefix=s' => \$refuse_prefix,
) or die "usage: $0 [--port N] [--system-id ID] [--password PW] [--refuse-prefix DIGITS]\n";

use constant {
    ESME_ROK        => 0x00,
    ESME_RINVCMDID  => 0x03,
    ESME_RINVBNDSTS => 0x04,
    ESME_RINVDSTADR => 0x0B,
    ESME_RINVPASWD  => 0x0E,
    MESSAGE_STATE_DELIVERED => 2,
};

$| = 1;
my $parent = getppid();

# async => 1: requests we send (deliver_sm, enquire_link) return at once; their responses come
# through read_pdu like everything else. timeout: accept returns every second to check the parent.
my $server = Net::SMPP->new_listen('127.0.0.1', port => $port, async => 1, timeout => 1)
    or die "cannot listen on 127.0.0.1:$port: $!\n";
report('listening', port => $server->sockport);

my $next_id = 1;
while (getppid() == $parent) {
    my $client = $server->accept or next;
    serve($client);
    $client->close;
    report('closed');
}

sub serve {
    my ($client) = @_;
    my $bound = 0;
    while (my $pdu = $client->read_pdu) {
        my $cmd = $pdu->{cmd};
        my $seq = $pdu->{seq};
        if ($cmd == Net::SMPP::CMD_bind_transceiver) {
            my $ok = $pdu->{system_id} eq $system_id && $pdu->{password} eq $password;
            $client->bind_transceiver_resp(
                seq       => $seq,
                status    => $ok ? ESME_ROK : ESME_RINVPASWD,
                system_id => 'NETSMPP',
            );
            next unless $ok;
            $bound = 1;
            report('bound', system_id => $pdu->{system_id}, system_type => $pdu->{system_type},
                interface_version => $pdu->{interface_version});
            $client->enquire_link();
        } elsif ($cmd == Net::SMPP::CMD_submit_sm) {
            if (!$bound) {
                $client->submit_sm_resp(seq => $seq, status => ESME_RINVBNDSTS, message_id => '');
                next;
            }
            submit($client, $pdu);
        } elsif ($cmd == Net::SMPP::CMD_deliver_sm_resp) {
            report('deliver_sm_resp', seq => $seq, status => $pdu->{status});
        } elsif ($cmd == Net::SMPP::CMD_enquire_link) {
            $client->enquire_link_resp(seq => $seq);
            report('enquire_link', seq => $seq);
        } elsif ($cmd == Net::SMPP::CMD_enquire_link_resp) {
            report('enquire_link_resp', seq => $seq);
        } elsif ($cmd == Net::SMPP::CMD_unbind) {
            $client->unbind_resp(seq => $seq);
            report('unbind', seq => $seq);
            return;
        } elsif (($cmd & 0x80000000) == 0) {
            # SMPP 3.4 §4.3: a request we do not handle gets generic_nack.
            $client->generic_nack(seq => $seq, status => ESME_RINVCMDID);
        }
    }
}

sub submit {
    my ($client, $pdu) = @_;
    my $dest = $pdu->{destination_addr};
    my %fields = (
        seq    => $pdu->{seq},
        source => $pdu->{source_addr},
        dest   => $dest,
        dc     => $pdu->{data_coding},
        esm    => $pdu->{esm_class},
        rd     => $pdu->{registered_delivery},
        sm     => unpack('H*', $pdu->{short_message}),
    );
    if ($refuse_prefix ne '' && index($dest, $refuse_prefix) == 0) {
        $client->submit_sm_resp(seq => $pdu->{seq}, status => ESME_RINVDSTADR, message_id => '');
        report('submit', status => ESME_RINVDSTADR, id => '', %fields);
        return;
    }
    my $id = sprintf('NS%08d', $next_id++);
    my $submitted = strftime('%y%m%d%H%M', gmtime);
    $client->submit_sm_resp(seq => $pdu->{seq}, message_id => $id);
    report('submit', status => ESME_ROK, id => $id, %fields);
    return unless $pdu->{registered_delivery} & 0x01;

    # The text field quotes the start of the message only when it is plain text without a UDH.
    my $quoted = $pdu->{data_coding} == 0 && !($pdu->{esm_class} & 0x40)
        ? substr($pdu->{short_message}, 0, 20) : '';
    my $text = "id:$id sub:001 dlvrd:001 submit date:$submitted"
        . ' done date:' . strftime('%y%m%d%H%M', gmtime)
        . " stat:DELIVRD err:000 text:$quoted";
    my $seq = $client->deliver_sm(
        source_addr_ton      => $pdu->{dest_addr_ton},
        source_addr_npi      => $pdu->{dest_addr_npi},
        source_addr          => $dest,
        dest_addr_ton        => $pdu->{source_addr_ton},
        dest_addr_npi        => $pdu->{source_addr_npi},
        destination_addr     => $pdu->{source_addr},
        esm_class            => 0x04,
        data_coding          => 0,
        short_message        => $text,
        # Named TLVs go out as given: a C-octet string keeps its NUL, an integer is packed.
        receipted_message_id => "$id\0",
        message_state        => pack('C', MESSAGE_STATE_DELIVERED),
    );
    report('delivered', seq => $seq, id => $id);
}

sub report {
    my ($event, %fields) = @_;
    print join("\t", $event, map { "$_=" . ($fields{$_} // '') } sort keys %fields), "\n";
}
