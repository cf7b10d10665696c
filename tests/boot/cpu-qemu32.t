#!/bin/bash
# Boot test: the whole image under QEMU -cpu qemu32.
CPU='qemu32'
. tests/boot/cpu-models.sh

finish
