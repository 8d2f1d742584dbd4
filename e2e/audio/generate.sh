#!/bin/sh
# Regenerates the decoding samples (Debian 12: `apt-get install -y ffmpeg`, ffmpeg 5.1).
# Each is a 2.5 s, 1 kHz sine at amplitude 1/8 (the lavfi sine default), encoded small (< 40 KB); the sample
# rates differ on purpose so the resampler sees 8, 22.05, 44.1 and 48 kHz input.
set -eu
cd "$(dirname "$0")"
tone() { rate=$1; shift; ffmpeg -hide_banner -loglevel error -y -f lavfi -i "sine=frequency=1000:sample_rate=$rate:duration=2.5" "$@"; }
tone 8000 -ac 1 -c:a pcm_s16le tone-1khz.wav
tone 44100 -ac 1 -c:a libmp3lame -b:a 32k tone-1khz.mp3
tone 48000 -ac 1 -c:a aac -b:a 32k tone-1khz.m4a
tone 48000 -ac 1 -c:a libopus -b:a 24k tone-1khz.ogg
tone 48000 -ac 1 -c:a libopus -b:a 24k tone-1khz.webm
tone 22050 -ac 1 -c:a flac tone-1khz.flac
# Corrupt: a real MP3 header (so the sniffer accepts it) followed by garbage,
# which the browser's decoder must refuse.
head -c 417 tone-1khz.mp3 > corrupt.mp3
head -c 4000 /dev/zero | tr '\0' '\125' >> corrupt.mp3
