/* Every RV32IM instruction, written out in assembly (tests/test_riscv_elf.sh,
 * built with the cross compiler): each result is compared with a value
 * derived by hand.  L1 0x16000 gets the first failing check's number, or
 * 0x600D after all of them; then ebreak halts the core. */
	.equ	RESULT, 0x16000

	.macro	CHECK n, reg, value
	li	a7, \n
	li	t6, \value
	bne	\reg, t6, fail
	.endm

	.text
	.globl	main
main:
	mv	s2, ra
	li	s0, 0x7FFFFFFF
	li	s1, -1
	/* lui, auipc */
	lui	t0, 0xABCDE
	CHECK	1, t0, 0xABCDE000
1:	auipc	t0, 0
	la	t1, 1b
	sub	t0, t0, t1
	CHECK	3, t0, 0
	/* register-immediate */
	addi	t0, s0, 1
	CHECK	4, t0, 0x80000000
	slti	t0, s1, 0
	CHECK	5, t0, 1
	sltiu	t0, s1, -1          /* 0xFFFFFFFF < 0xFFFFFFFF: no */
	CHECK	6, t0, 0
	xori	t0, s1, 0x555
	CHECK	7, t0, 0xFFFFFAAA
	ori	t0, zero, -2048
	CHECK	8, t0, 0xFFFFF800
	andi	t0, s0, 0x7F0
	CHECK	9, t0, 0x7F0
	slli	t0, s1, 31
	CHECK	10, t0, 0x80000000
	srli	t0, s1, 31
	CHECK	11, t0, 1
	srai	t0, t0, 0
	srai	t1, s1, 31
	CHECK	12, t1, 0xFFFFFFFF
	/* register-register */
	add	t0, s0, s0
	CHECK	13, t0, 0xFFFFFFFE
	sub	t0, zero, s0
	CHECK	14, t0, 0x80000001
	li	t2, 33
	sll	t0, s1, t2          /* by 33 & 31 = 1 */
	CHECK	15, t0, 0xFFFFFFFE
	slt	t0, s1, zero
	CHECK	16, t0, 1
	sltu	t0, s1, zero
	CHECK	17, t0, 0
	xor	t0, s0, s1
	CHECK	18, t0, 0x80000000
	srl	t0, s1, t2
	CHECK	19, t0, 0x7FFFFFFF
	sra	t0, t0, t2
	CHECK	20, t0, 0x3FFFFFFF
	or	t0, s0, zero
	CHECK	21, t0, 0x7FFFFFFF
	and	t0, s0, s1
	CHECK	22, t0, 0x7FFFFFFF
	/* M */
	li	t1, -3
	li	t2, 5
	mul	t0, t1, t2
	CHECK	23, t0, -15
	mulh	t0, t1, t2
	CHECK	24, t0, -1
	mulhsu	t0, t1, t2
	CHECK	25, t0, -1
	mulhu	t0, t1, t2          /* 0xFFFFFFFD * 5 = 0x4_FFFFFFF1 */
	CHECK	26, t0, 4
	div	t0, t1, zero
	CHECK	27, t0, -1
	divu	t0, t1, t2
	CHECK	28, t0, 0x33333332
	rem	t0, t1, t2
	CHECK	29, t0, -3
	remu	t0, t1, zero
	CHECK	30, t0, -3
	li	t3, 0x80000000
	div	t0, t3, s1
	CHECK	31, t0, 0x80000000
	rem	t0, t3, s1
	CHECK	32, t0, 0
	/* loads and stores (local data RAM and L1) */
	li	t3, 0xFFB00000
	li	t1, 0x8081F0F1
	sw	t1, 0(t3)
	lb	t0, 0(t3)
	CHECK	33, t0, 0xFFFFFFF1
	lbu	t0, 1(t3)
	CHECK	34, t0, 0xF0
	lh	t0, 2(t3)
	CHECK	35, t0, 0xFFFF8081
	lhu	t0, 2(t3)
	CHECK	36, t0, 0x8081
	sb	zero, 3(t3)
	sh	zero, 0(t3)
	lw	t0, 0(t3)
	CHECK	37, t0, 0x00810000
	lw	t0, 2(t3)           /* misaligned: rounded down (the pages' rule) */
	CHECK	38, t0, 0x00810000
	li	t4, 0x16010
	sw	t1, 0(t4)
	lw	t0, 0(t4)
	CHECK	39, t0, 0x8081F0F1
	/* branches: taken and not */
	li	a7, 40
	beq	s0, s1, fail
	bne	s0, s0, fail
	blt	s0, s1, fail
	bge	s1, s0, fail
	bltu	s1, s0, fail
	bgeu	s0, s1, fail
	beq	s0, s0, 2f
	j	fail
2:	bltu	s0, s1, 3f
	j	fail
3:	bge	s0, s1, 4f
	j	fail
4:	/* jal, jalr (bit 0 of the target cleared) */
	jal	ra, 5f
	CHECK	41, a0, 42
	la	t0, 6f
	addi	t0, t0, 1
	jalr	t1, t0, 0
	j	fail
6:	CHECK	42, zero, 0
	fence
	/* x0 is never written */
	addi	zero, zero, 1
	CHECK	43, zero, 0
	li	a0, 0x600D
	li	t0, RESULT
	sw	a0, 0(t0)
	mv	ra, s2
	ret
5:	li	a0, 42
	ret
fail:
	li	t0, RESULT
	sw	a7, 0(t0)
	ebreak
