/* status.h: why a probe field is empty; the screen and JSON show it */
#ifndef PS_STATUS_H
#define PS_STATUS_H

enum ps_status {
	PS_ST_OK = 0,	   /* read */
	PS_ST_UNSUPPORTED, /* the device/kernel does not report it */
	PS_ST_ABSENT,	   /* there is nothing to read (virtual NIC: no PCIe) */
	PS_ST_NEEDS_ROOT,  /* readable only by root */
	PS_ST_NOT_RECORDED, /* --sysroot/--snapshot: not in the recording */
	PS_ST_ERROR,	    /* failed; the reason string says why */
};

/* stable JSON name: "ok", "unsupported", "absent", "needs_root", ... */
const char *ps_status_name(enum ps_status st);
/* translated phrase for the screen and the text report */
const char *ps_status_text(enum ps_status st);
/* parse a JSON name back; PS_ST_ERROR when unknown */
enum ps_status ps_status_parse(const char *name);

#endif
