internal import COpenSSL

/// BIGNUM arithmetic for ``BigNumber``: every call converts in, computes, converts out and frees.
enum OpenSSLBigNumberArithmetic {
    enum Operation {
        case add, subtract, multiply
    }

    static func modularPower(base: BigNumber, exponent: BigNumber, modulus: BigNumber) -> BigNumber {
        precondition(!modulus.isZero, "modulus must not be zero")
        return withNumbers(base, exponent, modulus) { result, numbers, context in
            BN_set_flags(numbers[1], COpenSSL_BN_FLG_CONSTTIME)
            return BN_mod_exp(result, numbers[0], numbers[1], numbers[2], context)
        }
    }

    static func modular(_ operation: Operation, _ lhs: BigNumber, _ rhs: BigNumber, modulus: BigNumber) -> BigNumber {
        precondition(!modulus.isZero, "modulus must not be zero")
        return withNumbers(lhs, rhs, modulus) { result, numbers, context in
            switch operation {
            case .add: BN_mod_add(result, numbers[0], numbers[1], numbers[2], context)
            case .subtract: BN_mod_sub(result, numbers[0], numbers[1], numbers[2], context)
            case .multiply: BN_mod_mul(result, numbers[0], numbers[1], numbers[2], context)
            }
        }
    }

    static func plain(_ operation: Operation, _ lhs: BigNumber, _ rhs: BigNumber) -> BigNumber {
        precondition(operation != .subtract, "BigNumber is non-negative; use subtracting(_:modulus:)")
        return withNumbers(lhs, rhs) { result, numbers, context in
            operation == .add ? BN_add(result, numbers[0], numbers[1]) : BN_mul(result, numbers[0], numbers[1], context)
        }
    }

    /// Converts the operands to BIGNUMs, runs `body` writing into a result BIGNUM, and frees everything.
    private static func withNumbers(
        _ operands: BigNumber...,
        body: (OpaquePointer, [OpaquePointer], OpaquePointer) -> Int32
    ) -> BigNumber {
        guard let context = BN_CTX_new(), let result = BN_new() else { fatalError("BIGNUM allocation failed") }
        let numbers = operands.map { operand in
            guard let number = BN_bin2bn(operand.magnitude, Int32(operand.magnitude.count), nil) else {
                fatalError("BIGNUM allocation failed")
            }
            return number
        }
        defer {
            numbers.forEach { BN_clear_free($0) }
            BN_clear_free(result)
            BN_CTX_free(context)
        }
        // With a non-zero modulus these operations fail only on allocation failure.
        guard body(result, numbers, context) == 1 else {
            fatalError("\(OpenSSLErrorQueue.drain(context: "BIGNUM arithmetic"))")
        }
        var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(result) + 7) / 8))
        BN_bn2bin(result, &bytes)
        return BigNumber(bigEndian: bytes)
    }
}
