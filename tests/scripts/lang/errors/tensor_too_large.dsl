# A tensor larger than memory is a DeviceError at the statement that asked for it (it was an
# uncaught std::bad_alloc that ended the process).
print(ones([2]).tolist())  # expect: [1.0, 1.0]
let x = zeros([1099511627776])  # expect error: DeviceError: out of memory: cannot allocate 4398046511104 bytes
