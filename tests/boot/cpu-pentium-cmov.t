#!/bin/bash
# Boot test: the whole image under QEMU -cpu pentium,+cmov.
CPU='pentium,+cmov'
. tests/boot/cpu-models.sh

finish
