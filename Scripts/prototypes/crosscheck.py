#!/usr/bin/env python3
"""Drives the NUT v1 prototypes for the Swift cross-check tests (see README.md)."""
import json
import os
import sys
import wave

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nut_audible  # noqa: E402
import nut_modem  # noqa: E402


def write_wav(path, x, fs):
    pcm = np.clip(np.round(x * 32767), -32768, 32767).astype('<i2')
    with wave.open(path, 'wb') as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(fs)
        w.writeframes(pcm.tobytes())


def read_wav(path):
    with wave.open(path, 'rb') as w:
        assert w.getsampwidth() == 2, 'only 16-bit PCM WAV'
        fs = w.getframerate()
        ch = w.getnchannels()
        data = np.frombuffer(w.readframes(w.getnframes()), dtype='<i2').astype(float) / 32768.0
    return data.reshape(-1, ch)[:, 0], fs


def symmetric_inaudible(token, fs, peak=0.9):
    """The NUT-I frame with each chip's pulse truncated to |t| < 4 chips (the spec's
    definition; the prototype's encode() evaluates chips k0-4..k0+4, i.e. [-4, 5)).
    Chip k covers the samples n with k*fs < n*Rc < (k+8)*fs, in integer arithmetic."""
    chips, _ = nut_modem.frame_chips(token)
    n = int(np.ceil((len(chips) + 2 * nut_modem.SPAN) / nut_modem.RC * fs))
    t = np.arange(n) / fs - nut_modem.SPAN / nut_modem.RC
    tc = t * nut_modem.RC
    bb = np.zeros(n)
    rc = int(nut_modem.RC)
    for k in range(len(chips)):
        lo = k * fs // rc + 1
        hi = -((-(k + 2 * nut_modem.SPAN) * fs) // rc) - 1
        hi = min(hi, n - 1)
        bb[lo:hi + 1] += chips[k] * nut_modem.rrc(tc[lo:hi + 1] - k)
    s = bb * np.cos(2 * np.pi * nut_modem.FC * (t + nut_modem.SPAN / nut_modem.RC))
    r = int(0.008 * fs)
    w = np.ones(n)
    w[:r] = 0.5 - 0.5 * np.cos(np.pi * np.arange(r) / r)
    w[-r:] = w[:r][::-1]
    s *= w
    return s / np.max(np.abs(s)) * peak


def main():
    cmd, mode = sys.argv[1], sys.argv[2]
    if cmd == 'encode':
        fs, token, out = int(sys.argv[3]), bytes.fromhex(sys.argv[4]), sys.argv[5]
        x = nut_audible.encode(token, fs) if mode == 'audible' else nut_modem.encode(token, fs)
        pad = np.zeros(fs // 2)
        write_wav(out, np.concatenate([pad, x, pad]), fs)
    elif cmd == 'samples':
        fs, token, out = int(sys.argv[3]), bytes.fromhex(sys.argv[4]), sys.argv[5]
        x = nut_audible.encode(token, fs) if mode == 'audible' else symmetric_inaudible(token, fs)
        x.astype('<f4').tofile(out)
    elif cmd == 'decode':
        x, fs = read_wav(sys.argv[3])
        results = nut_audible.decode(x, fs) if mode == 'audible' else nut_modem.decode(x, fs)
        for r in results:
            if r['token'] is not None:
                print(json.dumps({'token': r['token'].hex(), 't_start': float(r['t_start'])}, sort_keys=True))
    else:
        sys.exit('unknown command ' + cmd)


if __name__ == '__main__':
    main()
