/* The instruction table (src/isa.def): internal consistency, agreement with
 * tt-llk's assembly.yaml and ttsim's tensix_isa.json (tests/data), the
 * documented mode layouts, and a round trip word -> text -> word. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include <yaml.h>

#include "isa.h"
#include "ttx.h"
#include "util.h"

static int count_insns(void)
{
	int n = 0;
	for (unsigned op = 0; op < 256; op++)
		n += ttx_isa_insn(op)->mnemonic != NULL;
	return n;
}

START_TEST(test_table_has_128_opcodes)
{
	ck_assert_int_eq(count_insns(), 128);
	for (unsigned op = 0; op < 256; op++) {
		const struct ttx_insn_info *in = ttx_isa_insn(op);
		if (in->mnemonic)
			ck_assert_uint_eq(in->opcode, op);
	}
}
END_TEST

/* Every tt-llk field lies in bits 23:0, in descending order, without overlap. */
START_TEST(test_fields_disjoint_and_ordered)
{
	for (unsigned op = 0; op < 256; op++) {
		const struct ttx_insn_info *in = ttx_isa_insn(op);
		if (!in->mnemonic)
			continue;
		uint32_t used = 0;
		for (unsigned i = 0; i < in->nfields; i++) {
			const struct ttx_field *f = &in->fields[i];
			ck_assert_msg(f->width >= 1 && f->lo + f->width <= 24, "%s.%s outside 23:0", in->mnemonic, f->name);
			uint32_t m = ((1u << f->width) - 1) << f->lo;
			ck_assert_msg(!(used & m), "%s.%s overlaps", in->mnemonic, f->name);
			used |= m;
			if (i)
				ck_assert_msg(in->fields[i - 1].lo > f->lo, "%s fields not in descending order", in->mnemonic);
		}
		ck_assert_uint_eq(ttx_isa_reserved_bits(in), 0xFFFFFFu & ~used);
	}
}
END_TEST

START_TEST(test_layouts_inside_24_bits)
{
	for (unsigned id = 0; id < TTX_LAYOUT_COUNT; id++) {
		const struct ttx_layout_info *l = ttx_isa_layout(id);
		ck_assert_ptr_nonnull(l->page);
		ck_assert(strncmp(l->page, "TC/", 3) == 0);
		for (unsigned i = 0; i < l->nfields; i++)
			ck_assert_msg(l->fields[i].lo + l->fields[i].width <= 24, "%s.%s", l->name, l->fields[i].name);
	}
}
END_TEST

/* Lower-case and drop '_' and ' ' so "RegIndex16b" matches "reg_index_16b". */
static void normalize(const char *in, char *out, size_t n)
{
	size_t k = 0;
	for (; *in && *in != '#' && k + 1 < n; in++)
		if (*in != '_' && *in != ' ')
			out[k++] = (char)tolower((unsigned char)*in);
	out[k] = '\0';
}

static const struct ttx_field *field_at(const struct ttx_insn_info *in, unsigned lo)
{
	for (unsigned i = 0; i < in->nfields; i++)
		if (in->fields[i].lo == lo)
			return &in->fields[i];
	return NULL;
}

static yaml_node_t *map_get(yaml_document_t *doc, yaml_node_t *map, const char *key)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(doc, p->key);
		if (k->type == YAML_SCALAR_NODE && strcmp((char *)k->data.scalar.value, key) == 0)
			return yaml_document_get_node(doc, p->value);
	}
	return NULL;
}

/* assembly.yaml: same 128 mnemonics and opcodes; each instruction's arguments
   are exactly our tt-llk fields (name and start bit). */
START_TEST(test_agrees_with_assembly_yaml)
{
	size_t len;
	char *text = test_read_data("assembly.yaml", &len);
	yaml_parser_t parser;
	yaml_document_t doc;
	ck_assert(yaml_parser_initialize(&parser));
	yaml_parser_set_input_string(&parser, (unsigned char *)text, len);
	ck_assert_msg(yaml_parser_load(&parser, &doc), "assembly.yaml does not parse");
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	ck_assert(root && root->type == YAML_MAPPING_NODE);
	int seen = 0;
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		const char *name = (char *)yaml_document_get_node(&doc, p->key)->data.scalar.value;
		yaml_node_t *body = yaml_document_get_node(&doc, p->value);
		yaml_node_t *opn = map_get(&doc, body, "op_binary");
		ck_assert_ptr_nonnull(opn);
		unsigned op = (unsigned)strtoul((char *)opn->data.scalar.value, NULL, 0);
		const struct ttx_insn_info *in = ttx_isa_find(name, strlen(name));
		ck_assert_msg(in != NULL, "yaml mnemonic %s missing from the table", name);
		ck_assert_msg(in->opcode == op, "%s: opcode 0x%02X, yaml 0x%02X", name, in->opcode, op);
		seen++;
		yaml_node_t *args = map_get(&doc, body, "arguments");
		unsigned nargs = 0, prev_lo = 99;
		if (args && args->type == YAML_SEQUENCE_NODE) {
			for (yaml_node_item_t *it = args->data.sequence.items.start; it < args->data.sequence.items.top; it++) {
				yaml_node_t *arg = yaml_document_get_node(&doc, *it);
				yaml_node_t *an = map_get(&doc, arg, "name"), *sb = map_get(&doc, arg, "start_bit");
				unsigned lo = (unsigned)strtoul((char *)sb->data.scalar.value, NULL, 0);
				/* UNPACR_NOP lists Unpack_block_selection twice (same bit). */
				if (lo == prev_lo)
					continue;
				prev_lo = lo;
				const struct ttx_field *f = field_at(in, lo);
				ck_assert_msg(f != NULL, "%s: yaml argument at bit %u missing", name, lo);
				char a[64], b[64];
				normalize((char *)an->data.scalar.value, a, sizeof(a));
				normalize(f->name, b, sizeof(b));
				ck_assert_msg(strcmp(a, b) == 0, "%s bit %u: yaml '%s', table '%s'", name, lo,
				              (char *)an->data.scalar.value, f->name);
				nargs++;
			}
		}
		ck_assert_msg(nargs == in->nfields, "%s: %u yaml arguments, %u fields", name, nargs, in->nfields);
	}
	ck_assert_int_eq(seen, 128);
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	free(text);
}
END_TEST

/* Deliberate differences from tensix_isa.json, each with its reason. */
static const struct { const char *mnemonic; unsigned lo, width; const char *why; } json_differences[] = {
	{ "UNPACR_NOP", 0, 23, "json reads NoOp as bits 4:0; the SETREG and OverlayClear modes "
	  "(TC/UNPACR_NOP_SETREG.md) keep operands up to bit 22, so the tt-llk field spans 22:0" },
};

START_TEST(test_agrees_with_tensix_isa_json)
{
	char *text = test_read_data("tensix_isa.json", NULL);
	json_object *root = json_tokener_parse(text);
	ck_assert_ptr_nonnull(root);
	int seen = 0;
	json_object_object_foreach(root, name, entry) {
		json_object *opj, *args;
		ck_assert(json_object_object_get_ex(entry, "opcode", &opj));
		const struct ttx_insn_info *in = ttx_isa_find(name, strlen(name));
		ck_assert_msg(in != NULL, "json mnemonic %s missing", name);
		ck_assert_uint_eq(in->opcode, (unsigned)json_object_get_int(opj));
		seen++;
		if (!json_object_object_get_ex(entry, "args", &args))
			continue;
		json_object_object_foreach(args, aname, range) {
			unsigned hi, lo;
			ck_assert(sscanf(json_object_get_string(range), "%u:%u", &hi, &lo) == 2);
			const struct ttx_field *f = field_at(in, lo);
			ck_assert_msg(f != NULL, "%s.%s: no field at bit %u", name, aname, lo);
			char a[64], b[64];
			normalize(aname, a, sizeof(a));
			normalize(f->name, b, sizeof(b));
			ck_assert_msg(strcmp(a, b) == 0, "%s bit %u: json '%s', table '%s'", name, lo, aname, f->name);
			if (hi == lo)   /* a start bit only: the field runs to the next one */
				continue;
			int documented = 0;
			for (size_t i = 0; i < sizeof(json_differences) / sizeof(json_differences[0]); i++)
				documented |= strcmp(json_differences[i].mnemonic, name) == 0 &&
				              json_differences[i].lo == lo && json_differences[i].width == f->width;
			ck_assert_msg(documented || f->width == hi - lo + 1, "%s.%s: json %u:%u, table width %u",
			              name, aname, hi, lo, f->width);
		}
	}
	ck_assert_int_eq(seen, 128);
	json_object_put(root);
	free(text);
}
END_TEST

/* The mode-dependent layouts named by the documentation. */
START_TEST(test_mode_layouts)
{
	static const struct { uint32_t word; const char *layout; } cases[] = {
		{ 0x45000000, "SETDMAREG_Immediate" }, { 0x45000080, "SETDMAREG_Special" },
		{ 0x66800000, "STOREIND_L1" }, { 0x66C00000, "STOREIND_L1" },
		{ 0x66400000, "STOREIND_MMIO" }, { 0x66000000, "STOREIND_Src" },
		{ 0x48000000, "REG2FLOP_Configuration" }, { 0x48200000, "REG2FLOP_ADC" },
		{ 0x8E000000, "SFPSTOCHRND" }, { 0x8E000008, "SFPSTOCHRNDi" },
		{ 0x42000000, "UNPACR_Regular" }, { 0x42000002, "UNPACR_FlushCache" },
		{ 0x42002000, "UNPACR_IncrementContextCounter" }, { 0x42002002, "UNPACR_FlushCache" },
		{ 0x43000001, "UNPACR_NOP_ZEROSRC" }, { 0x43000005, "UNPACR_NOP_ZEROSRC" },
		{ 0x43000002, "UNPACR_NOP_Nop" }, { 0x43000004, "UNPACR_NOP_SETREG" },
		{ 0x43000000, "UNPACR_NOP_OverlayClear" }, { 0x43000003, "UNPACR_NOP_OverlayClear" },
		{ 0x43000007, "UNPACR_NOP_SETDVALID" },
		{ 0x58000000, "ADDDMAREG" }, { 0x58800000, "ADDDMAREGi" },
		{ 0x5C800000, "SHIFTDMAREGi" }, { 0xB5000000, "RMWCIB" },
		{ 0x84000000, "SFPMAD" }, { 0x93000000, "SFPLOADMACRO" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct ttx_layout_info *l = ttx_isa_layout_of(cases[i].word);
		ck_assert_msg(l != NULL, "0x%08X: no layout", cases[i].word);
		ck_assert_msg(strcmp(l->name, cases[i].layout) == 0, "0x%08X: %s, expected %s",
		              cases[i].word, l->name, cases[i].layout);
	}
	/* Undocumented opcodes and the unassigned UNPACR_NOP mode 6 have none. */
	ck_assert_ptr_null(ttx_isa_layout_of(0x14000000));  /* TRNSPSRCA */
	ck_assert_ptr_null(ttx_isa_layout_of(0x44000000));  /* RSTDMA */
	ck_assert_ptr_null(ttx_isa_layout_of(0x43000006));
}
END_TEST

START_TEST(test_decode_structs)
{
	/* TTI_SFPMAD(VA=1, VB=2, VC=3, VD=4, Mod1=5) */
	struct ttx_args_SFPMAD m = ttx_decode_SFPMAD(0x84012345);
	ck_assert_uint_eq(m.VA, 1);
	ck_assert_uint_eq(m.VB, 2);
	ck_assert_uint_eq(m.VC, 3);
	ck_assert_uint_eq(m.VD, 4);
	ck_assert_uint_eq(m.Mod1, 5);
	/* SFPLOADMACRO packs VD and Imm10 (TC/SFPLOADMACRO.md):
	   MacroIndex 23:22, VDLo 21:20, Mod0 19:16, AddrMod 15:14, Imm9 9:1, VDHi 0. */
	struct ttx_args_SFPLOADMACRO lm = ttx_decode_SFPLOADMACRO(0x93E3C000u | (0x155u << 1) | 1u);
	ck_assert_uint_eq(lm.MacroIndex, 3);
	ck_assert_uint_eq(lm.VDLo, 2);
	ck_assert_uint_eq(lm.Mod0, 3);
	ck_assert_uint_eq(lm.AddrMod, 3);
	ck_assert_uint_eq(lm.Imm9, 0x155);
	ck_assert_uint_eq(lm.VDHi, 1);
	struct ttx_args_SETDMAREG_Special sp = ttx_decode_SETDMAREG_Special(0x45C7FFFFu);
	ck_assert_uint_eq(sp.ResultSize, 3);
	ck_assert_uint_eq(sp.WhichPackers, 0xF);
	ck_assert_uint_eq(sp.InputSource, 0xF);
	ck_assert_uint_eq(sp.InputHalfReg, 7);
	ck_assert_uint_eq(sp.ResultHalfReg, 0x7F);
	/* SFPSHFT2 documents two readings of bits 23:12. */
	struct ttx_args_SFPSHFT2 s2 = ttx_decode_SFPSHFT2(0x94FFF321u);
	ck_assert_uint_eq(s2.Imm12, 0xFFF);
	ck_assert_uint_eq(s2.VB, 0xF);
	ck_assert_uint_eq(s2.VC, 3);
}
END_TEST

/* Random operand values: word -> text -> word is the identity, for every opcode. */
START_TEST(test_round_trip_random_fields)
{
	uint64_t rng = 0x9E3779B97F4A7C15ull;
	for (unsigned op = 0; op < 256; op++) {
		const struct ttx_insn_info *in = ttx_isa_insn(op);
		if (!in->mnemonic)
			continue;
		for (int k = 0; k < 500; k++) {
			uint32_t w = op << 24;
			for (unsigned i = 0; i < in->nfields; i++) {
				uint32_t v = (uint32_t)test_rand(&rng);
				/* Mix extremes in: 0 and all-ones are the interesting edges. */
				if (k % 5 == 0) v = 0;
				if (k % 5 == 1) v = 0xFFFFFFFFu;
				w |= (v & ((1u << in->fields[i].width) - 1)) << in->fields[i].lo;
			}
			char text[256], err[256];
			ck_assert_int_eq(ttx_disasm(w, text, sizeof(text)), 0);
			ck_assert_msg(strncmp(text, in->mnemonic, strlen(in->mnemonic)) == 0, "%s", text);
			uint32_t back;
			ck_assert_msg(ttx_asm_line(text, &back, err, sizeof(err)) == TTX_OK, "%s: %s", text, err);
			ck_assert_msg(back == w, "0x%08X -> '%s' -> 0x%08X", w, text, back);
		}
	}
}
END_TEST

/* Any 32-bit word at all disassembles to text that reassembles to it. */
START_TEST(test_round_trip_any_word)
{
	uint64_t rng = 12345;
	for (int k = 0; k < 200000; k++) {
		uint32_t w = (uint32_t)test_rand(&rng);
		char text[256], err[256];
		int warn = ttx_disasm(w, text, sizeof(text));
		const struct ttx_insn_info *in = ttx_isa_insn(w >> 24);
		ck_assert_int_eq(warn, !in->mnemonic || (w & ttx_isa_reserved_bits(in)) != 0);
		uint32_t back;
		ck_assert_msg(ttx_asm_line(text, &back, err, sizeof(err)) == TTX_OK, "%s: %s", text, err);
		ck_assert_msg(back == w, "0x%08X -> '%s' -> 0x%08X", w, text, back);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("isa");
	TCase *tc = tcase_create("table");
	tcase_add_test(tc, test_table_has_128_opcodes);
	tcase_add_test(tc, test_fields_disjoint_and_ordered);
	tcase_add_test(tc, test_layouts_inside_24_bits);
	tcase_add_test(tc, test_agrees_with_assembly_yaml);
	tcase_add_test(tc, test_agrees_with_tensix_isa_json);
	tcase_add_test(tc, test_mode_layouts);
	tcase_add_test(tc, test_decode_structs);
	suite_add_tcase(s, tc);
	TCase *rt = tcase_create("round_trip");
	tcase_set_timeout(rt, 60);
	tcase_add_test(rt, test_round_trip_random_fields);
	tcase_add_test(rt, test_round_trip_any_word);
	suite_add_tcase(s, rt);
	return test_run_suite(s);
}
