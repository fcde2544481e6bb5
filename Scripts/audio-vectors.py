#!/usr/bin/env python3
"""Write Captures/audio/ (short NUT v1 recordings) and Vectors/audio/systematic.json.

The clean frames come from the draft's numpy prototypes in Scripts/prototypes/ (a second
implementation of docs/spec/nut-audio.md: NUT-I with the pulse truncation of NUT-6, as
crosscheck.py's `samples` writes it; NUT-A as nut_audible.encode writes it), placed at sample
offsets this script chooses. The channel effects are applied here with numpy/scipy: white
Gaussian noise at an in-band SNR (the definition of the page's channel model: the frame's
power over the noise power inside 1500 Hz for NUT-I, 3200 Hz for NUT-A), a time-scale error
(band-limited resampling, output sample n = input at n (1 + eps)), clipping, NaN and
infinite samples, several channels, other sample formats and a lossy codec.

Every expectation is the generator's ground truth: the token and mode encoded, and the
start by the page's convention (NUT-47: 3.5 chips after a NUT-I frame's first sample;
NUT-48: a NUT-A frame's first sample), divided by (1 + eps) when the file was resampled.
Nothing here runs the reference decoder.

Near the decoder's threshold a single recording cannot say whether a conforming decoder must
find the frame (the tolerances of NUT-38 to NUT-43 are rates), so such vectors are
`acceptable` with two readings: the token, or no frame; never another token (NUT-37, NUT-44).

Files: 16-bit WAV written by scipy, compressed to FLAC by the `flac` command (1.4.2) when
present; the Ogg Vorbis files by `oggenc` (vorbis-tools 1.4.2, serial number fixed). When a
tool is missing, the committed file is kept (the vector reads the committed file). Seeds are
fixed: the same bytes on every run.

    python3 Scripts/audio-vectors.py
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import wave

import numpy as np
from scipy.io import wavfile
from scipy.signal import lfilter, resample_poly

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "Scripts", "prototypes"))
import nut_audible  # noqa: E402
import nut_modem  # noqa: E402

AUDIO_DIR = os.path.join(ROOT, "Captures", "audio")
VECTORS = os.path.join(ROOT, "Vectors", "audio", "systematic.json")
REL = "../../Captures/audio/"

PEAK = 10 ** (-1 / 20)          # NUT-9: -1 dBFS
LEAD = 0.2                       # seconds of silence before the first frame
TAIL = 0.2                       # and after the last
BAND = {"inaudible": 1500.0, "audible": 3200.0}   # the in-band SNR's bandwidth B (§6.5)
HALF_CHIP_START = 3.5 / 1200.0   # NUT-47

# The clauses a frame of each mode exercises when it is decoded: its waveform, the byte
# layer, and what a decoder reports.
WAVE = {
    "inaudible": ["NUT-1", "NUT-3", "NUT-4", "NUT-5", "NUT-6", "NUT-7", "NUT-8", "NUT-10", "NUT-11",
                  "NUT-12", "NUT-13", "NUT-14", "NUT-15", "NUT-16", "NUT-17", "NUT-47"],
    "audible": ["NUT-1", "NUT-20", "NUT-21", "NUT-22", "NUT-23", "NUT-24", "NUT-48"],
}
BYTES = ["NUT-25", "NUT-27", "NUT-28", "NUT-29", "NUT-30", "NUT-31", "NUT-37"]
REPORT = ["NUT-46", "NUT-52"]


def clause_key(c):
    return int(c.split("-")[1])


# ------------------------------------------------------------------ frames
def crc16(data):
    return nut_modem.crc16_ccitt(data)


def symbols(token, crc_xor=0, byte_errors=()):
    """NUT-31's symbols of a token; crc_xor != 0 writes a wrong CRC (the codeword stays a
    Reed-Solomon codeword, so no correction can repair it); byte_errors = [(index, xor)]
    alters codeword bytes after encoding (errors a Reed-Solomon decoder can correct)."""
    L = len(token)
    h = nut_modem.LEN_CODES.index(L)
    crc = crc16(bytes([h]) + token) ^ crc_xor
    cw = bytearray(nut_modem.RS.encode(token + bytes([crc >> 8, crc & 0xFF])))
    for i, x in byte_errors:
        cw[i] ^= x
    out = [h]
    for b in cw:
        out += [b >> 4, b & 15]
    return out


def inaudible(syms, fs):
    """NUT-I frame (NUT-3 to NUT-8, NUT-15 to NUT-17) at peak -1 dBFS; the prototype's
    chips, the pulse truncated to |t| < 4 chips in integer arithmetic (NUT-6), as
    Scripts/prototypes/crosscheck.py's symmetric_inaudible, for any symbols."""
    chips = np.concatenate([nut_modem.PREAMBLE] + [nut_modem.data_code(i, m) for i, m in enumerate(syms)])
    span, rc = nut_modem.SPAN, int(nut_modem.RC)
    n = -((-(len(chips) + 2 * span) * fs) // rc)                      # NUT-7
    t = np.arange(n) / fs - span / nut_modem.RC
    tc = t * nut_modem.RC
    bb = np.zeros(n)
    for k in range(len(chips)):
        lo = k * fs // rc + 1
        hi = min(-((-(k + 2 * span) * fs) // rc) - 1, n - 1)
        bb[lo:hi + 1] += chips[k] * nut_modem.rrc(tc[lo:hi + 1] - k)
    s = bb * np.cos(2 * np.pi * nut_modem.FC * (t + span / nut_modem.RC))
    r = int(0.008 * fs)
    w = np.ones(n)
    w[:r] = 0.5 - 0.5 * np.cos(np.pi * np.arange(r) / r)
    w[-r:] = w[:r][::-1]
    s *= w
    return s / np.max(np.abs(s)) * PEAK


def audible(syms, fs):
    """NUT-A frame (NUT-20 to NUT-24) at peak -1 dBFS, as nut_audible.encode, for any symbols."""
    nsym = int(round(nut_audible.TSYM * fs))
    out = [nut_audible.chirp(fs), np.zeros(int(round(nut_audible.TGAP * fs)))]
    env = nut_audible._env(nsym, fs)
    t = np.arange(nsym) / fs
    for i, s in enumerate(syms):
        lo, hi = nut_audible.tone_freqs(i, s)
        out.append(env * 0.5 * (np.sin(2 * np.pi * lo * t) + np.sin(2 * np.pi * hi * t)))
    x = np.concatenate(out)
    return x / np.max(np.abs(x)) * PEAK


def frame(mode, syms, fs):
    return inaudible(syms, fs) if mode == "inaudible" else audible(syms, fs)


def start_offset(mode):
    return HALF_CHIP_START if mode == "inaudible" else 0.0


# ------------------------------------------------------------------ recordings
class Rec:
    """A recording being built: channels of float samples at fs, and the frames placed in it."""

    def __init__(self, fs, seconds, channels=1):
        self.fs = fs
        self.x = np.zeros((int(round(seconds * fs)), channels))
        self.frames = []      # dicts: token, mode, start, channel, power, n0, n1, sent

    def place(self, mode, token, at, channel=0, gain=1.0, syms=None, reported=True):
        """Add a frame whose first sample is at `at` seconds (rounded to a sample)."""
        s = frame(mode, syms if syms is not None else symbols(token), self.fs) * gain
        n0 = int(round(at * self.fs))
        self.x[n0:n0 + len(s), channel] += s
        self.frames.append({"token": token.hex(), "mode": mode, "channel": channel,
                            "start": n0 / self.fs + start_offset(mode), "power": float(np.mean(s ** 2)),
                            "n0": n0, "n1": n0 + len(s), "reported": reported})
        return n0 + len(s)

    def noise(self, snr_db, mode, seed, channel=0, power=None):
        """White Gaussian noise on a channel at an in-band SNR over the first frame's power
        (§9.1: sigma^2 = P / 10^(SNR/10) * (fs/2) / B)."""
        p = power if power is not None else next(f["power"] for f in self.frames if f["channel"] == channel)
        sigma2 = p / 10 ** (snr_db / 10) * (self.fs / 2) / BAND[mode]
        rng = np.random.default_rng(seed)
        self.x[:, channel] += rng.standard_normal(len(self.x)) * np.sqrt(sigma2)

    def level(self, noise_rms=0.01):
        """Scale signal and noise together so that the noise's rms is -40 dBFS: the recorder's
        gain; the SNR stays, nothing clips, and FLAC stores the noise in fewer bits."""
        self.x *= noise_rms / np.sqrt(np.mean(self.x[:int(0.1 * self.fs)] ** 2))

    def reverb(self, room=0.9, wet=1.0):
        """Freeverb, as §9.1 names it: 8 feedback combs (feedback 0.7 + 0.28 room, no damping)
        in parallel on the input times 0.015, then 4 all-passes (feedback 0.5) in series, delay
        lengths Jezar's at 44.1 kHz scaled to fs; output = dry + wet * reverberated."""
        scale = self.fs / 44100
        fb = 0.7 + 0.28 * room
        for ch in range(self.x.shape[1]):
            x = self.x[:, ch] * 0.015
            acc = np.zeros(len(x))
            for L in (1116, 1188, 1277, 1356, 1422, 1491, 1557, 1617):
                L = max(1, int(L * scale))
                acc += lfilter(np.r_[np.zeros(L), 1.0], np.r_[1.0, np.zeros(L - 1), -fb], x)
            for L in (556, 441, 341, 225):
                L = max(1, int(L * scale))
                acc = -acc + lfilter(np.r_[np.zeros(L), 1.0], np.r_[1.0, np.zeros(L - 1), -0.5], acc)
            self.x[:, ch] = self.x[:, ch] + wet * acc

    def fit(self, limit=0.99):
        """Scale signal and noise together when the peak is past full scale (§9.1)."""
        peak = np.max(np.abs(self.x))
        if peak > limit:
            self.x *= limit / peak

    def resample(self, eps):
        """Time-scale error eps (NUT-51): output sample n is the input at n (1 + eps); eps is
        p/q - 1 for the integers given, applied by a band-limited polyphase filter."""
        up, down = eps
        self.x = resample_poly(self.x, up, down, axis=0)
        for f in self.frames:
            f["start"] = f["start"] * up / down
        return down / up - 1

    def expected(self):
        fr = [f for f in self.frames if f["reported"]]
        fr.sort(key=lambda f: (f["start"], f["mode"], f["token"], f["channel"]))
        return [{"channel": f["channel"], "mode": f["mode"], "start": round(f["start"], 6), "token": f["token"]}
                for f in fr]


def pcm16(x):
    return np.clip(np.round(x * 32767), -32768, 32767).astype("<i2")


def write_wav16(path, x, fs):
    wavfile.write(path, fs, pcm16(x if x.shape[1] > 1 else x[:, 0]))


def write_flac(name, x, fs):
    """16-bit FLAC by way of a WAV; keeps the committed file when `flac` is missing."""
    path = os.path.join(AUDIO_DIR, name)
    flac = shutil.which("flac")
    if flac is None:
        if not os.path.exists(path):
            sys.exit("audio-vectors: the flac command is needed to write " + name)
        print("audio-vectors: flac missing, keeping the committed " + name, file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as tmp:
        wav = os.path.join(tmp, "in.wav")
        write_wav16(wav, x, fs)
        subprocess.run([flac, "--silent", "--force", "-8", "--no-seektable", "--channel-map=none", "-o", path, wav], check=True)


def write_ogg(name, x, fs, quality):
    path = os.path.join(AUDIO_DIR, name)
    oggenc = shutil.which("oggenc")
    if oggenc is None:
        if not os.path.exists(path):
            sys.exit("audio-vectors: oggenc (vorbis-tools) is needed to write " + name)
        print("audio-vectors: oggenc missing, keeping the committed " + name, file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as tmp:
        wav = os.path.join(tmp, "in.wav")
        write_wav16(wav, x, fs)
        subprocess.run([oggenc, "--quiet", "--serial", "1", "--discard-comments", "-q", str(quality),
                        "-o", path, wav], check=True)


def write_pcm(name, x, fs, width):
    """Integer PCM WAV of 1, 3 or 4 bytes a sample (8-bit unsigned, 24- and 32-bit signed)."""
    path = os.path.join(AUDIO_DIR, name)
    if width == 1:
        data = np.clip(np.round(x * 127) + 128, 0, 255).astype("u1").tobytes()
    else:
        full = 2 ** (8 * width - 1)
        v = np.clip(np.round(x * (full - 1)), -full, full - 1).astype("<i4").reshape(-1)
        data = v.view("u1").reshape(-1, 4)[:, :width].tobytes()
    with wave.open(path, "wb") as w:
        w.setnchannels(x.shape[1])
        w.setsampwidth(width)
        w.setframerate(fs)
        w.writeframes(data)


def write_float(name, x, fs):
    wavfile.write(os.path.join(AUDIO_DIR, name), fs, x[:, 0].astype("<f4") if x.shape[1] == 1 else x.astype("<f4"))


# ------------------------------------------------------------------ vectors
VECTORS_OUT = []


def token_of(seed, L):
    return bytes(np.random.default_rng(seed).integers(0, 256, L, dtype=np.uint8).tolist())


def add(name, description, rec, file, clauses, flags, verdict="valid", tolerance=0.001, alternatives=None,
        expect=None):
    modes = sorted({f["mode"] for f in rec.frames})
    cl = set(clauses)
    for m in modes:
        if any(f["reported"] and f["mode"] == m for f in rec.frames):
            cl |= set(WAVE[m])
    if rec.frames:
        cl |= set(BYTES) | set(REPORT)
    if rec.x.shape[1] > 1:
        cl.add("NUT-34")
    if rec.fs in (44100, 48000):
        cl.add("NUT-32")
    v = {"id": "audio/systematic/" + name, "kind": "audio", "description": description,
         "clauses": sorted(cl, key=clause_key), "flags": sorted(set(flags)), "source": "synthesized",
         "verdict": verdict, "audio": REL + file,
         "expect": {"frames": expect if expect is not None else rec.expected()}}
    if alternatives is not None:
        v["alternatives"] = [{"frames": a} for a in alternatives]
    if tolerance:
        v["toleranceSeconds"] = tolerance
    assert not any(x["id"] == v["id"] for x in VECTORS_OUT), v["id"]
    VECTORS_OUT.append(v)


def length_seconds(mode, L):
    nsym = 1 + 2 * (L + 6)
    return (195 + 64 * nsym) / 1200 if mode == "inaudible" else 0.12 + 0.05 * nsym


def single(mode, L, fs, token, channels=1):
    rec = Rec(fs, LEAD + length_seconds(mode, L) + TAIL, channels)
    rec.place(mode, token, LEAD)
    return rec


KHZ = {44100: "44k1", 48000: "48k", 96000: "96k"}
SHORT = {"inaudible": "nut-i", "audible": "nut-a"}


def main():
    os.makedirs(AUDIO_DIR, exist_ok=True)
    seed = 100

    # --- clean frames: every token length at 48 kHz; 6 and 16 bytes at 44.1 kHz; 96 kHz.
    for mode in ("inaudible", "audible"):
        for fs, lengths in ((48000, (6, 8, 12, 16)), (44100, (6, 16)), (96000, (6, 12))):
            for L in lengths:
                seed += 1
                token = token_of(seed, L)
                if fs == 48000 and L == 6:
                    token = bytes(6) if mode == "inaudible" else b"\xff" * 6
                rec = single(mode, L, fs, token)
                name = "%s-%db-%s-clean" % (SHORT[mode], L, KHZ[fs])
                write_flac(name + ".flac", rec.x, fs)
                flags = [] if fs == 48000 else ["SampleRate"]
                if token in (bytes(6), b"\xff" * 6):
                    flags.append("FieldBounds")
                if fs == 96000:
                    add(name, "One clean %s frame of a %d-byte token at 96 kHz, 0.2 s into the file: the "
                        "waveform is defined at any rate from 44.1 kHz (NUT-2) but NUT-32 binds decoders "
                        "only at 44.1 and 48 kHz, so the frame or no frame; never another token."
                        % (mode, L), rec, name + ".flac", ["NUT-2", "NUT-49"], flags, verdict="acceptable",
                        alternatives=[[]])
                else:
                    add(name, "One clean %s frame of a %d-byte token at %s Hz, 0.2 s into the file: decoded "
                        "with its token, mode and start (within 1 ms), nothing else." % (mode, L, fs),
                        rec, name + ".flac", ["NUT-49"], flags)

    # --- several frames in one file, gaps of 50 to 150 ms (NUT-18, NUT-19).
    for mode, fs, lengths, gaps in (("inaudible", 48000, (6, 8, 6), (0.05, 0.15)),
                                    ("audible", 44100, (8, 6, 12), (0.15, 0.05))):
        tokens = []
        for L in lengths:
            seed += 1
            tokens.append(token_of(seed, L))
        total = LEAD + sum(length_seconds(mode, len(t)) for t in tokens) + sum(gaps) + TAIL
        rec = Rec(fs, total)
        at = LEAD
        for i, t in enumerate(tokens):
            end = rec.place(mode, t, at)
            at = end / fs + (gaps[i] if i < len(gaps) else 0)
        name = "%s-three-frames-%s" % (SHORT[mode], KHZ[fs])
        write_flac(name + ".flac", rec.x, fs)
        add(name, "Three %s frames of %s-byte tokens separated by %s ms of silence: each decodes on its "
            "own, reported in order of start." % (mode, "/".join(map(str, lengths)),
                                                  " and ".join(str(int(g * 1000)) for g in gaps)),
            rec, name + ".flac", ["NUT-19", "NUT-49"], ["MultipleStructures"] + (["SampleRate"] if fs != 48000 else []))

    # --- both modes at once: a NUT-A frame over a NUT-I frame (disjoint bands).
    seed += 1
    ti, ta = token_of(seed, 12), token_of(seed + 1, 6)
    rec = Rec(48000, LEAD + 0.3 + length_seconds("inaudible", 12) + TAIL)
    rec.place("inaudible", ti, LEAD)
    rec.place("audible", ta, LEAD + 0.3)
    write_flac("nut-ia-overlapping-48k.flac", rec.x, 48000)
    add("nut-ia-overlapping-48k", "A 6-byte audible frame starting 0.3 s into a 12-byte inaudible frame in the "
        "same channel: the bands do not overlap, so both are decoded, reported in order of start.",
        rec, "nut-ia-overlapping-48k.flac", ["NUT-19", "NUT-49"], ["MultipleStructures"])

    # --- white noise at in-band SNRs above, around and below the threshold.
    # Above: 0 dB and more, the frame must decode (NUT-49 bounds its start to 1 ms there).
    # Around: the tolerance point (NUT-38: -6 dB NUT-I; NUT-39: -4 dB NUT-A) and the reference
    # decoder's 95 % point (§9.2): the token or nothing. Below: nothing expected, the token allowed.
    noise_points = {
        "inaudible": [(8, 10, "above"), (16, 0, "above"), (6, -6, "around"), (16, -6, "around"),
                      (6, -8, "around"), (8, -12, "below"), (6, -20, "below")],
        "audible": [(8, 10, "above"), (12, 0, "above"), (6, -4, "around"), (16, -4, "around"),
                    (6, -9, "around"), (8, -13, "below"), (6, -20, "below")],
    }
    for mode, points in noise_points.items():
        for L, snr, where in points:
            seed += 1
            fs = 44100 if snr in (0, -8, -9) else 48000
            token = token_of(seed, L)
            rec = single(mode, L, fs, token)
            rec.noise(snr, mode, seed)
            rec.level()
            name = "%s-%db-%s-snr%s%d" % (SHORT[mode], L, KHZ[fs], "m" if snr < 0 else "p", abs(snr))
            write_flac(name + ".flac", rec.x, fs)
            flags = ["LowSnr"] + (["SampleRate"] if fs != 48000 else [])
            tol_clause = "NUT-38" if mode == "inaudible" else "NUT-39"
            if where == "above":
                add(name, "A %d-byte %s frame in white noise at an in-band SNR of %+d dB, well above the "
                    "threshold: decoded, its start within 1 ms." % (L, mode, snr), rec, name + ".flac",
                    ["NUT-49", tol_clause, "NUT-44"], flags)
            elif where == "around":
                add(name, "A %d-byte %s frame in white noise at an in-band SNR of %+d dB, near the threshold "
                    "(%s's point is %s dB): the token or no frame, never another token; start within 10 ms "
                    "(NUT-49 bounds it only from 0 dB)." % (L, mode, snr, tol_clause,
                                                           "-6" if mode == "inaudible" else "-4"),
                    rec, name + ".flac", [tol_clause, "NUT-44"], flags, verdict="acceptable",
                    tolerance=0.01, alternatives=[[]])
            else:
                add(name, "A %d-byte %s frame in white noise at an in-band SNR of %+d dB, well below the "
                    "threshold: no frame expected, the token allowed, never another token."
                    % (L, mode, snr), rec, name + ".flac", ["NUT-37", "NUT-44"], flags, verdict="acceptable",
                    tolerance=0.01, expect=[], alternatives=[rec.expected()])

    # --- white noise alone.
    rec = Rec(48000, 2.0)
    rec.noise(0, "inaudible", 7, power=0.05)
    rec.level()
    write_flac("noise-48k.flac", rec.x, 48000)
    add("noise-48k", "Two seconds of white Gaussian noise without a frame: no token reported.", rec,
        "noise-48k.flac", ["NUT-37", "NUT-45"], [])

    # --- clock drift +-200 ppm (NUT-51's sign: eps > 0 arrives compressed), by resampling.
    for mode, fs, L, (up, down), tag in (("inaudible", 48000, 8, (5000, 5001), "plus200ppm"),
                                         ("inaudible", 44100, 16, (5000, 4999), "minus200ppm"),
                                         ("audible", 44100, 8, (5000, 5001), "plus200ppm"),
                                         ("audible", 48000, 16, (5000, 4999), "minus200ppm"),
                                         ("inaudible", 48000, 6, (200, 201), "plus0p5pct"),
                                         ("inaudible", 48000, 16, (200, 199), "minus0p5pct"),
                                         ("audible", 48000, 6, (200, 201), "plus0p5pct"),
                                         ("audible", 48000, 16, (200, 199), "minus0p5pct")):
        seed += 1
        token = token_of(seed, L)
        rec = single(mode, L, fs, token)
        eps = rec.resample((up, down))
        name = "%s-%db-%s-%s" % (SHORT[mode], L, KHZ[fs], tag)
        write_flac(name + ".flac", rec.x, fs)
        add(name, "A clean %d-byte %s frame at %s Hz whose clock runs %+d ppm (resampled: the "
            "frame lasts T/(1%+.4f)): decoded, its start (scaled likewise) within 1 ms." % (
                L, mode, fs, round(eps * 1e6), eps), rec, name + ".flac",
            ["NUT-49", "NUT-51"] + (["NUT-40"] if abs(eps) > 0.004 else []),
            ["ClockDrift"] + (["SampleRate"] if fs != 48000 else []))

    # --- clipping: a frame 6 dB past full scale, clipped in a 16-bit file, then a clean frame.
    for mode, L in (("inaudible", 6), ("audible", 6)):
        seed += 1
        t1, t2 = token_of(seed, L), token_of(seed + 100, L)
        d = length_seconds(mode, L)
        rec = Rec(48000, LEAD + 2 * d + 0.1 + TAIL)
        rec.place(mode, t1, LEAD, gain=2.0 / PEAK)
        rec.place(mode, t2, LEAD + d + 0.1)
        rec.x = np.clip(rec.x, -1.0, 32767 / 32768)
        name = "%s-clipped-then-clean-48k" % SHORT[mode]
        write_flac(name + ".flac", rec.x, 48000)
        exp = rec.expected()
        add(name, "A %s frame driven 6 dB past full scale and hard-clipped in a 16-bit file, then a "
            "clean one: clipped samples do not stop decoding, so the second frame is decoded; the "
            "clipped frame may or may not be (no tolerance covers clipping), never as another token."
            % mode, rec, name + ".flac", ["NUT-36", "NUT-49"], ["Clipping", "MultipleStructures"],
            verdict="acceptable", alternatives=[exp[1:]], expect=exp)

    # --- reverberation (§9.1's Freeverb, room size 0.9, no damping, wet 1), no noise.
    for mode, L in (("inaudible", 6), ("audible", 8)):
        seed += 1
        token = token_of(seed, L)
        rec = single(mode, L, 48000, token)
        rec.reverb()
        rec.fit()
        name = "%s-%db-48k-reverb" % (SHORT[mode], L)
        write_flac(name + ".flac", rec.x, 48000)
        add(name, "A %d-byte %s frame through the heavy reverberation of the evaluation's channel model (Freeverb, "
            "room size 0.9, no damping, wet 1), without noise: decoded, its start (the direct path's) within 1 ms."
            % (L, mode), rec, name + ".flac", ["NUT-43", "NUT-49"], [])

    # --- float WAV: a frame whose samples reach +-2.0 (past full scale, not clipped in the file).
    seed += 1
    token = token_of(seed, 6)
    rec = single("inaudible", 6, 44100, token)
    rec.x *= 2.0 / PEAK
    write_float("nut-i-6b-44k1-float-overrange.wav", rec.x, 44100)
    add("nut-i-6b-44k1-float-overrange", "A 32-bit float WAV (IEEE float format) whose inaudible frame peaks "
        "at 2.0 (+6 dBFS): samples past full scale are decoded as they are, so the frame is decoded.", rec,
        "nut-i-6b-44k1-float-overrange.wav", ["NUT-36", "NUT-49"], ["Clipping", "SampleRate"])

    # --- NaN and infinite samples in a float WAV: decoded as 0, decoding goes on (NUT-35).
    seed += 1
    token = token_of(seed, 6)
    rec = single("audible", 6, 44100, token)
    x = rec.x.astype(np.float32)
    x[1000:1400, 0] = np.nan
    x[2000:2010, 0] = np.inf
    x[2010:2020, 0] = -np.inf
    rec.x = x
    write_float("nut-a-6b-44k1-nan-inf.wav", rec.x, 44100)
    add("nut-a-6b-44k1-nan-inf", "A float WAV with 400 NaN and 20 infinite samples in the silence before a "
        "clean audible frame: they are decoded as 0 and do not stop decoding, so the frame is decoded.",
        rec, "nut-a-6b-44k1-nan-inf.wav", ["NUT-35", "NUT-49"], ["SampleRate"])

    seed += 1
    token = token_of(seed, 6)
    rec = single("inaudible", 6, 44100, token)
    x = rec.x.astype(np.float32)
    x[100:300, 0] = np.nan
    n0 = rec.frames[0]["n0"]
    x[n0 + 30000:n0 + 30003, 0] = np.nan        # three samples inside the frame's symbols
    x[n0 + 40000, 0] = np.inf
    rec.x = x
    write_float("nut-i-6b-44k1-nan-inside.wav", rec.x, 44100)
    add("nut-i-6b-44k1-nan-inside", "A float WAV with NaN samples before an inaudible frame and three NaN "
        "and one infinite sample inside its symbols: each is decoded as 0 (a tiny erasure), so the frame "
        "is decoded.", rec, "nut-i-6b-44k1-nan-inside.wav", ["NUT-35", "NUT-49"], ["SampleRate"])

    # --- other integer sample formats.
    for mode, L, fs, width in (("audible", 8, 44100, 1), ("inaudible", 6, 48000, 3), ("audible", 6, 44100, 4)):
        seed += 1
        token = token_of(seed, L)
        rec = single(mode, L, fs, token)
        name = "%s-%db-%s-pcm%d" % (SHORT[mode], L, KHZ[fs], 8 * width)
        write_pcm(name + ".wav", rec.x, fs, width)
        add(name, "A %d-bit integer PCM WAV with one clean %d-byte %s frame: read as samples in +-1 "
            "whatever the bit depth, and decoded." % (8 * width, L, mode), rec, name + ".wav", ["NUT-49"],
            ["SampleRate"] if fs != 48000 else [])

    # --- low level: the frame peaks at -50 dBFS in a 16-bit file (NUT-42).
    for mode, L in (("inaudible", 16), ("audible", 6)):
        seed += 1
        token = token_of(seed, L)
        rec = single(mode, L, 48000, token)
        rec.x *= 10 ** (-50 / 20) / PEAK
        name = "%s-%db-48k-minus50dbfs" % (SHORT[mode], L)
        write_flac(name + ".flac", rec.x, 48000)
        add(name, "A %d-byte %s frame whose peak is at -50 dBFS in a 16-bit file: decoded." % (L, mode),
            rec, name + ".flac", ["NUT-42", "NUT-49"], ["FieldBounds"])

    # --- several channels.
    seed += 1
    t0, t1 = token_of(seed, 6), token_of(seed + 1, 8)
    rec = Rec(48000, LEAD + 0.4 + length_seconds("inaudible", 8) + TAIL, 2)
    rec.place("inaudible", t0, LEAD + 0.4, channel=0)
    rec.place("inaudible", t1, LEAD, channel=1)
    write_flac("nut-i-stereo-two-tokens-48k.flac", rec.x, 48000)
    add("nut-i-stereo-two-tokens-48k", "A stereo file with a different inaudible token on each channel, the "
        "right channel's first: each channel is decoded on its own, numbered from 0, reported in order "
        "of start.", rec, "nut-i-stereo-two-tokens-48k.flac", ["NUT-49"], ["MultipleStructures"])

    seed += 1
    token = token_of(seed, 6)
    rec = Rec(48000, LEAD + length_seconds("audible", 6) + TAIL, 2)
    rec.place("audible", token, LEAD, channel=0)
    rec.place("audible", token, LEAD, channel=1)
    rec.noise(0, "audible", seed, channel=0)
    rec.noise(30, "audible", seed + 1, channel=1)
    rec.x *= 0.01 / np.sqrt(np.mean(rec.x[:int(0.1 * rec.fs), 0] ** 2))
    rec.frames[0]["reported"] = False
    write_flac("nut-a-stereo-same-token-48k.flac", rec.x, 48000)
    add("nut-a-stereo-same-token-48k", "A stereo file with the same audible frame at the same time on both "
        "channels, the left at 0 dB in-band SNR and the right at +30 dB: one frame, reported with the "
        "channel of the higher SNR (1).", rec, "nut-a-stereo-same-token-48k.flac", ["NUT-55", "NUT-49"],
        ["LowSnr"])

    seed += 1
    token = token_of(seed, 6)
    rec = Rec(44100, LEAD + 0.2 + length_seconds("audible", 6) + TAIL, 2)
    rec.place("audible", token, LEAD + 0.2, channel=0)
    rec.place("audible", token, LEAD, channel=1)
    write_flac("nut-a-stereo-same-token-apart-44k1.flac", rec.x, 44100)
    add("nut-a-stereo-same-token-apart-44k1", "A stereo file with the same audible token on both channels, "
        "the right channel's copy 200 ms earlier (more than 50 ms apart): two frames, one per channel.",
        rec, "nut-a-stereo-same-token-apart-44k1.flac", ["NUT-49", "NUT-55"], ["SampleRate", "MultipleStructures"])

    seed += 1
    token = token_of(seed, 12)
    rec = Rec(48000, LEAD + length_seconds("inaudible", 12) + TAIL, 3)
    rec.place("inaudible", token, LEAD, channel=2)
    rng = np.random.default_rng(seed)
    rec.x[:, 0] += rng.standard_normal(len(rec.x)) * 0.0002
    write_flac("nut-i-three-channels-48k.flac", rec.x, 48000)
    add("nut-i-three-channels-48k", "A three-channel file, noise on channel 0, silence on 1 and an inaudible "
        "frame on channel 2: reported once, on channel 2.", rec, "nut-i-three-channels-48k.flac",
        ["NUT-49"], [])

    # --- frames that must not be reported (NUT-37), and Reed-Solomon corrections (NUT-28, NUT-30).
    for mode, L, fs in (("inaudible", 8, 48000), ("audible", 12, 44100)):
        seed += 1
        token = token_of(seed, L)
        rec = Rec(fs, LEAD + length_seconds(mode, L) + TAIL)
        rec.place(mode, token, LEAD, syms=symbols(token, crc_xor=0x0100), reported=False)
        name = "%s-%db-%s-bad-crc" % (SHORT[mode], L, KHZ[fs])
        write_flac(name + ".flac", rec.x, fs)
        add(name, "A clean %s frame whose CRC bytes are wrong but whose Reed-Solomon parity is computed over "
            "them (a codeword no correction repairs): never reported." % mode, rec, name + ".flac",
            ["NUT-27", "NUT-37"], [])
    for mode, L, fs, errors in (("inaudible", 6, 48000, [(2, 0x5A)]), ("audible", 16, 48000, [(0, 0x81), (19, 0x0F)])):
        seed += 1
        token = token_of(seed, L)
        rec = Rec(fs, LEAD + length_seconds(mode, L) + TAIL)
        rec.place(mode, token, LEAD, syms=symbols(token, byte_errors=errors))
        name = "%s-%db-%s-rs-%d-errors" % (SHORT[mode], L, KHZ[fs], len(errors))
        write_flac(name + ".flac", rec.x, fs)
        add(name, "A clean %s frame sent with %d codeword byte(s) altered (within the code's 2 errors): a "
            "Reed-Solomon decoder restores the token; a decoder that does not correct reports nothing; "
            "never another token." % (mode, len(errors)), rec, name + ".flac", ["NUT-28", "NUT-30", "NUT-49"],
            [], verdict="acceptable", alternatives=[[]])

    # --- lossy: Ogg Vorbis (libsndfile reads it).
    for mode, L, q, verdict in (("audible", 8, 3, "valid"), ("inaudible", 6, 8, "acceptable")):
        seed += 1
        token = token_of(seed, L)
        rec = Rec(48000, LEAD + length_seconds(mode, L) + TAIL)
        rec.place(mode, token, LEAD)
        name = "%s-%db-48k-vorbis-q%d" % (SHORT[mode], L, q)
        write_ogg(name + ".ogg", rec.x, 48000, q)
        if verdict == "valid":
            add(name, "One %d-byte audible frame stored as Ogg Vorbis (quality %d): the 1.2-4.2 kHz tones pass "
                "the codec, so the frame is decoded." % (L, q), rec, name + ".ogg", ["NUT-49"], ["LossyCodec"])
        else:
            add(name, "One %d-byte inaudible frame stored as Ogg Vorbis (quality %d): whether 18.5-20 kHz "
                "survives depends on the codec's low-pass, so the token or nothing, never another token."
                % (L, q), rec, name + ".ogg", ["NUT-49"], ["LossyCodec"], verdict="acceptable",
                alternatives=[[]])

    doc = {"vectorFile": 1,
           "description": "Audio vectors over short NUT v1 recordings in Captures/audio/: both modes, every token "
                          "length, 44.1/48/96 kHz, white noise around the threshold, clock drift, clipping, "
                          "NaN, sample formats, channels and a lossy codec; generated by "
                          "Scripts/audio-vectors.py from what it encoded.",
           "vectors": VECTORS_OUT}
    os.makedirs(os.path.dirname(VECTORS), exist_ok=True)
    with open(VECTORS, "w") as f:
        f.write(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    print("%d vectors, %d files" % (len(VECTORS_OUT), len(os.listdir(AUDIO_DIR))))


if __name__ == "__main__":
    main()
