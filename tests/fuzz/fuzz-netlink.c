/*
 * fuzz-netlink.c: libFuzzer harnesses for the netlink reply parsers behind
 * the NIC panel: RTM_GETLINK (FUZZ_LINK: ps_link_parse) and ethtool's
 * generic netlink replies (FUZZ_ETHTOOL: the string sets, then every group,
 * with and without names). Built by "make fuzz".
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe-ethtool.h"
#include "probe-link.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* netlink buffers are aligned; a copy also ends where size says */
	void *buf = malloc(size ? size : 1);

	memcpy(buf, data, size);
#if defined(FUZZ_LINK)
	{
		struct ps_link_info info;

		ps_link_init(&info, "vA");
		ps_link_parse(buf, size, &info);
		ps_link_free(&info);
	}
#elif defined(FUZZ_ETHTOOL)
	{
		struct ps_ethtool_strsets ss;
		struct ps_ethtool_info info;
		bool names;

		memset(&ss, 0, sizeof(ss));
		names = ps_ethtool_parse_strsets(buf, size, &ss) == 0;
		for (int g = 0; g < PS_ETHG_COUNT; g++) {
			ps_ethtool_init(&info, "vA");
			ps_ethtool_parse(g, buf, size, names ? &ss : NULL,
					 &info);
			ps_ethtool_features_summarise(&info);
			ps_ethtool_free(&info);
		}
		if (names)
			ps_ethtool_strsets_free(&ss);
	}
#else
#error "which parser? define FUZZ_LINK or FUZZ_ETHTOOL"
#endif
	free(buf);
	return 0;
}
