# The report over the network (docs/network.md).
#
#   make run NET=user          the e1000 on QEMU's user network, DHCP from QEMU,
#                              the report to a real rsyslogd and in.tftpd on
#                              127.0.0.1 (scripts/net-run.py); the collectors'
#                              files stay in $(BUILD)/net/ (syslog/, tftp/) and
#                              gather boot after boot, as a site's collectors do;
#                              serial.log and summary.json are the last boot's
#   make run MACHINE=net5501 NET=user   the same through the emulated machine's NIC
#
# NET= names the network; user is the one there is.
NET_KINDS := user
ifneq ($(NET),)
ifneq ($(filter run,$(MAKECMDGOALS)),)
ifeq ($(filter $(NET),$(NET_KINDS)),)
$(error NET=$(NET) is not a network make run knows; the networks: $(NET_KINDS))
endif
endif
RUN_BOOT = scripts/net-run.py --net $(NET) --out '$(BUILD)/net'
endif
