/* Configuration Unit (TC/ConfigurationUnit.md): SETC16, WRCFG, RDCFG, RMWCIB0-3. */
#include "tile.h"
#include "units.h"

int ttx_config_exec(struct ttx_tile *t, unsigned thread, uint32_t word)
{
	return ttx_fault_unimplemented(t, thread, word);
}
