/* Start-up code of a kernel for one of ttx's emulated RISC-V cores: a stack
 * at the top of the core's local data RAM (the linker script's __stack_top),
 * .data copied from its load address in L1 to its run address in local RAM
 * (the loader places segments at their load addresses, as embedded loaders
 * do), .bss zeroed, then main(); when main returns, ebreak halts the core. */
	.section .text.start, "ax"
	.globl _start
_start:
	la	sp, __stack_top
	la	a0, __data_load
	la	a1, __data_start
	la	a2, __data_end
1:	bgeu	a1, a2, 2f
	lw	a3, 0(a0)
	sw	a3, 0(a1)
	addi	a0, a0, 4
	addi	a1, a1, 4
	j	1b
2:	la	a1, __bss_start
	la	a2, __bss_end
3:	bgeu	a1, a2, 4f
	sw	zero, 0(a1)
	addi	a1, a1, 4
	j	3b
4:	call	main
	ebreak
5:	j	5b
