# Boot media for the field (docs/boot-media.md):
#
#   make cf-image   $(BUILD)/media/cryptoqual-cf.img: raw CompactFlash image
#                   (MBR, FAT16 partition, GRUB 2); dd it to the card
#   make iso        $(BUILD)/media/cryptoqual.iso: GRUB rescue ISO, same menu
#   make pxe        $(BUILD)/media/pxe/: TFTP root for iPXE, GRUB netboot, PXELINUX
#   make media      all three
#
# Variables: SERIAL (console speed of the menus and the kernel: 19200 for the
# Soekris net5501's comBIOS, 38400 for the ALIX's tinyBIOS), MENU_TIMEOUT
# (seconds before the menus boot the quick run), BOOT_ARGS (more kernel
# options for every entry, e.g. on_finish=reboot). Changing any rebuilds.
# Needs grub-pc-bin grub-common xorriso mtools pxelinux syslinux-common ipxe.

SERIAL       ?= 19200
MENU_TIMEOUT ?= 3
BOOT_ARGS    ?=

MEDIA     := $(BUILD)/media
CF_IMAGE  := $(MEDIA)/cryptoqual-cf.img
ISO_IMAGE := $(MEDIA)/cryptoqual.iso
PXE_TREE  := $(MEDIA)/pxe
PXE_STAMP := $(MEDIA)/pxe.stamp
MEDIA_SETTINGS := $(MEDIA)/settings.txt

.PHONY: cf-image iso pxe media

cf-image: $(CF_IMAGE)
iso: $(ISO_IMAGE)
pxe: $(PXE_STAMP)
media: cf-image iso pxe

# `make check` runs `make kernel tools unit`: the boot tests
# tests/boot/media-*.t need the media built with the settings above.
tools: media

MEDIA_OPTS = --serial '$(SERIAL)' --timeout '$(MENU_TIMEOUT)' --append '$(BOOT_ARGS)'

# Rebuild the media when a setting changes on the command line.
$(MEDIA_SETTINGS): FORCE
	@mkdir -p $(@D)
	@echo "$(MEDIA_OPTS)" | cmp -s - $@ || echo "$(MEDIA_OPTS)" > $@

MEDIA_DEPS := $(KERNEL) $(BUILD)/cryptoqual.sha256 $(MEDIA_SETTINGS) scripts/mk-grub-cfg.sh

$(CF_IMAGE): $(MEDIA_DEPS) scripts/mk-cf-image.sh
	scripts/mk-cf-image.sh --kernel $(KERNEL) $(MEDIA_OPTS) \
		--note "cryptoqual $(VERSION) image-sha256=$$(cat $(BUILD)/cryptoqual.sha256)" -o $@

$(ISO_IMAGE): $(MEDIA_DEPS) scripts/mk-iso.sh
	scripts/mk-iso.sh --kernel $(KERNEL) $(MEDIA_OPTS) -o $@

$(PXE_STAMP): $(MEDIA_DEPS) scripts/mk-pxe-tree.sh
	scripts/mk-pxe-tree.sh --kernel $(KERNEL) $(MEDIA_OPTS) -o $(PXE_TREE)
	touch $@
