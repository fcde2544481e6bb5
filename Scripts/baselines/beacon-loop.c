/*
 * The C baseline of `nearby-benchmarks cli`: a loop over libpcap that walks the HCI LE
 * advertising reports of a pcap file (LINKTYPE 187 or 201) and counts advertisements and
 * beacon frames the way `nearby-conformance decode` does, printing nothing per record.
 *
 *   cc -O2 -o beacon-loop Scripts/baselines/beacon-loop.c -lpcap
 *   beacon-loop FILE        prints "records advertisements beacons", then on a second
 *                           line the CPU seconds from opening the file to closing it
 *                           (this thread's clock: the loop without the process's start)
 *
 * Reports (HCI-ADV-7 legacy, HCI-EXT-1 extended, docs/spec/hci.md): each report's AD data
 * counts as one advertisement when it is not empty (RECORDS-9); extended reports with
 * Data_Status 1 (bits 5-6 of Event_Type) are joined with the next report of the same address
 * and SID (HCI-EXT-6 to HCI-EXT-8).
 * Beacons (AD-8, AD-9, docs/spec/ad-structures.md): service data 0xFEAA (Eddystone, any frame type), 0xFEF3 (BLE
 * token, docs/spec/ble-token.md), manufacturer data 4C 00 02 15 in a 26-byte structure
 * (iBeacon) and any company followed by BE AC in a 27-byte one (AltBeacon).
 *
 * To do the work the decoder does, each advertisement's fields (time, address, address type,
 * event type, RSSI, AD data) are copied into a struct and each beacon's identifier and power
 * into another, both folded into a checksum so the compiler keeps them. It trusts the file:
 * lengths running past a record end the record, without the decoder's fault accounting.
 */
#include <pcap/pcap.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static unsigned long advertisements, beacons, checksum;

struct advertisement {
    int64_t time;
    uint8_t address[6], address_type, rssi;
    uint16_t event_type;
    uint8_t data_len, data[255];
};

struct beacon {
    uint8_t kind, id[20];
    int8_t power;
};

static struct advertisement adv;
static int64_t record_time;

static void found(uint8_t kind, const uint8_t *id, size_t n, int8_t power) {
    struct beacon b = {kind, {0}, power};
    memcpy(b.id, id, n < 20 ? n : 20);
    checksum += b.id[0] + b.id[n < 20 ? n - 1 : 19] + (uint8_t)b.power + b.kind;
    beacons++;
}

static void walk_ad(const uint8_t *d, size_t n) {
    if (n == 0) return;
    advertisements++;
    adv.data_len = (uint8_t)(n < 255 ? n : 255);
    memcpy(adv.data, d, adv.data_len);
    checksum += adv.address[0] + adv.rssi + adv.event_type + adv.data_len + (uint64_t)adv.time;
    size_t i = 0;
    while (i < n) {
        size_t len = d[i];
        if (len == 0 || i + 1 + len > n) break;
        const uint8_t *s = d + i + 1; /* type, then len - 1 bytes */
        if (s[0] == 0x16 && len >= 3) {
            uint16_t uuid = (uint16_t)(s[1] | s[2] << 8);
            if (uuid == 0xFEAA && len >= 4)
                found(s[3], s + 4, len - 4, len > 4 ? (int8_t)s[4] : 0);
            else if (uuid == 0xFEF3 && len >= 4 && s[3] == 0xF7)
                found(0xF7, s + 4, len - 4, 0);
        } else if (s[0] == 0xFF && len >= 5) {
            if (len == 26 && s[1] == 0x4C && s[2] == 0x00 && s[3] == 0x02 && s[4] == 0x15)
                found(0x15, s + 5, 20, (int8_t)s[25]);
            else if (len == 27 && s[3] == 0xBE && s[4] == 0xAC)
                found(0xAC, s + 5, 20, (int8_t)s[25]);
        }
        i += 1 + len;
    }
}

/* A pending chain of extended-report fragments (one at a time is enough for this corpus
 * and for controllers, which finish one chain before starting another per advertiser). */
static uint8_t chain[1650];
static size_t chain_len;
static int chain_open;
static uint8_t chain_key[7];

static void event(const uint8_t *p, size_t n) {
    if (n < 4 || p[0] != 0x04 || p[1] != 0x3E) return; /* H4 event, LE Meta */
    const uint8_t *q = p + 3, *end = p + n;
    uint8_t sub = q[0];
    if (sub == 0x02) { /* LE Advertising Report */
        if (end - q < 2) return;
        unsigned reports = q[1];
        q += 2;
        for (unsigned r = 0; r < reports; r++) {
            if (end - q < 9) return;
            size_t len = q[8];
            if ((size_t)(end - q) < 9 + len + 1) return;
            adv.time = record_time;
            adv.event_type = q[0];
            adv.address_type = q[1];
            memcpy(adv.address, q + 2, 6);
            adv.rssi = q[9 + len];
            walk_ad(q + 9, len);
            q += 9 + len + 1;
        }
    } else if (sub == 0x0D) { /* LE Extended Advertising Report */
        if (end - q < 2) return;
        unsigned reports = q[1];
        q += 2;
        for (unsigned r = 0; r < reports; r++) {
            if (end - q < 24) return;
            unsigned type = q[0] | q[1] << 8;
            size_t len = q[23];
            if ((size_t)(end - q) < 24 + len) return;
            unsigned status = (type >> 5) & 3;
            adv.time = record_time;
            adv.event_type = (uint16_t)type;
            adv.address_type = q[2];
            memcpy(adv.address, q + 3, 6);
            adv.rssi = q[13];
            uint8_t key[7];
            memcpy(key, q + 3, 6);
            key[6] = q[11];
            if (chain_open && memcmp(key, chain_key, 7) == 0) {
                if (chain_len + len <= sizeof chain) {
                    memcpy(chain + chain_len, q + 24, len);
                    chain_len += len;
                }
                if (status != 1) {
                    walk_ad(chain, chain_len);
                    chain_open = 0;
                }
            } else if (status == 1) {
                memcpy(chain, q + 24, len);
                chain_len = len;
                memcpy(chain_key, key, 7);
                chain_open = 1;
            } else {
                walk_ad(q + 24, len);
            }
            q += 24 + len;
        }
    }
}

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FILE.pcap\n", argv[0]);
        return 2;
    }
    double start = cpu_seconds();
    char err[PCAP_ERRBUF_SIZE];
    pcap_t *pcap = pcap_open_offline(argv[1], err);
    if (!pcap) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    int link = pcap_datalink(pcap);
    size_t skip = link == 201 ? 4 : link == 187 ? 0 : (size_t)-1;
    if (skip == (size_t)-1) {
        fprintf(stderr, "link type %d is not HCI H4 (187, 201)\n", link);
        return 1;
    }
    struct pcap_pkthdr *h;
    const u_char *data;
    unsigned long records = 0;
    while (pcap_next_ex(pcap, &h, &data) == 1) {
        records++;
        record_time = (int64_t)h->ts.tv_sec * 1000000 + h->ts.tv_usec;
        if (h->caplen > skip) event(data + skip, h->caplen - skip);
    }
    pcap_close(pcap);
    double spent = cpu_seconds() - start;
    printf("%lu %lu %lu\n%.6f\n", records, advertisements, beacons, spent);
    fprintf(stderr, "checksum %lu\n", checksum);
    return 0;
}
