# Boot media for the field (docs/boot-media.md):
#
#   make cf-image   $(BUILD)/media/cryptoqual-cf.img: raw CompactFlash image
#                   (MBR, FAT16 partition, GRUB 2); dd it to the card
#   make iso        $(BUILD)/media/cryptoqual.iso: GRUB rescue ISO, same menu
#   make pxe        $(BUILD)/media/pxe/: TFTP root for iPXE, GRUB netboot, PXELINUX
#   make media      all three
#
# Variables: SERIAL (console speed of the menus and the kernel: `firmware`,
# the default, one image for a mixed fleet: the menus go through the BIOS
# console the firmware redirects to the serial port, the kernel keeps the
# speed the firmware set; or a fixed 19200 (the Soekris net5501's comBIOS),
# 38400 (the ALIX's tinyBIOS), 9600, 57600, 115200), MENU_TIMEOUT
# (seconds before the menus boot the quick run), BOOT_ARGS (more kernel
# options for every entry, e.g. on_finish=reboot). Changing any rebuilds.
# Needs grub-pc-bin grub-common xorriso mtools pxelinux syslinux-common ipxe.
#
#   make check-media  the same three in $(BUILD)/check-media/ with fixed
#                     settings (CHECK_MEDIA_OPTS below), for the boot tests
#                     tests/boot/media-*.t; `make check` builds these (through
#                     `tools`) and never the media above, so a `make cf-image
#                     SERIAL=38400` survives a `make check`.

SERIAL       ?= firmware
MENU_TIMEOUT ?= 3
BOOT_ARGS    ?=

MEDIA       := $(BUILD)/media
CHECK_MEDIA := $(BUILD)/check-media
CF_IMAGE    := $(MEDIA)/cryptoqual-cf.img
ISO_IMAGE   := $(MEDIA)/cryptoqual.iso
PXE_TREE    := $(MEDIA)/pxe
PXE_STAMP   := $(MEDIA)/pxe.stamp

.PHONY: cf-image iso pxe media check-media

cf-image: $(CF_IMAGE)
iso: $(ISO_IMAGE)
pxe: $(PXE_STAMP)
media: cf-image iso pxe
check-media: $(CHECK_MEDIA)/cryptoqual-cf.img $(CHECK_MEDIA)/cryptoqual.iso $(CHECK_MEDIA)/pxe.stamp

# `make check` runs `make kernel tools unit`: the boot tests need their media.
tools: check-media

MEDIA_OPTS = --serial '$(SERIAL)' --timeout '$(MENU_TIMEOUT)' --append '$(BOOT_ARGS)'
# The boot tests read the speed from the menus they boot, so any would do;
# a fixed 19200 (tests/boot/media-firmware.t builds its own SERIAL=firmware
# image).
CHECK_MEDIA_OPTS := --serial '19200' --timeout '3' --append ''

# $(call media_rules,DIR,OPTS_VARIABLE): the CF image, the ISO and the PXE
# tree in DIR, built with the options in the variable named OPTS_VARIABLE;
# DIR/settings.txt records them, so changing them rebuilds.
define media_rules
$(1)/settings.txt: FORCE
	@mkdir -p $$(@D)
	@echo "$$($(2))" | cmp -s - $$@ || echo "$$($(2))" > $$@

$(1)/cryptoqual-cf.img: $$(KERNEL) $$(BUILD)/cryptoqual.sha256 $(1)/settings.txt scripts/mk-grub-cfg.sh \
		scripts/mk-cf-image.sh
	scripts/mk-cf-image.sh --kernel $$(KERNEL) $$($(2)) \
		--note "cryptoqual $$(VERSION) image-sha256=$$$$(cat $$(BUILD)/cryptoqual.sha256)" -o $$@

$(1)/cryptoqual.iso: $$(KERNEL) $$(BUILD)/cryptoqual.sha256 $(1)/settings.txt scripts/mk-grub-cfg.sh \
		scripts/mk-iso.sh
	scripts/mk-iso.sh --kernel $$(KERNEL) $$($(2)) -o $$@

$(1)/pxe.stamp: $$(KERNEL) $$(BUILD)/cryptoqual.sha256 $(1)/settings.txt scripts/mk-grub-cfg.sh \
		scripts/mk-pxe-tree.sh
	scripts/mk-pxe-tree.sh --kernel $$(KERNEL) $$($(2)) -o $(1)/pxe
	touch $$@
endef

$(eval $(call media_rules,$(MEDIA),MEDIA_OPTS))
$(eval $(call media_rules,$(CHECK_MEDIA),CHECK_MEDIA_OPTS))
