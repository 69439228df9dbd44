internal import GRDBSQLite

extension EncryptingVFS {
    /// The methods of an encrypted file: reads, writes and truncations go through `EncryptedFile`, everything else
    /// to the real file. Version 2: no `xFetch`, so SQLite never maps the file and reads every page through `xRead`.
    nonisolated(unsafe) static let methods: UnsafeMutablePointer<sqlite3_io_methods> = {
        let methods = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
        methods.initialize(to: sqlite3_io_methods())
        methods.pointee.iVersion = 2
        methods.pointee.xClose = { file in EncryptingVFS.close(file) }
        methods.pointee.xRead = { file, buffer, count, offset in
            EncryptingVFS.state(file).read(buffer!, count, offset)
        }
        methods.pointee.xWrite = { file, buffer, count, offset in
            EncryptingVFS.state(file).write(buffer!, count, offset)
        }
        methods.pointee.xTruncate = { file, size in EncryptingVFS.state(file).truncate(size) }
        methods.pointee.xSync = { file, flags in
            let real = EncryptingVFS.state(file).real
            return real.pointee.pMethods.pointee.xSync(real, flags)
        }
        methods.pointee.xFileSize = { file, size in
            let real = EncryptingVFS.state(file).real
            return real.pointee.pMethods.pointee.xFileSize(real, size)
        }
        methods.pointee.xLock = { file, lock in
            let real = EncryptingVFS.state(file).real
            return real.pointee.pMethods.pointee.xLock(real, lock)
        }
        methods.pointee.xUnlock = { file, lock in
            let real = EncryptingVFS.state(file).real
            return real.pointee.pMethods.pointee.xUnlock(real, lock)
        }
        methods.pointee.xCheckReservedLock = { file, out in
            let real = EncryptingVFS.state(file).real
            return real.pointee.pMethods.pointee.xCheckReservedLock(real, out)
        }
        methods.pointee.xFileControl = { file, operation, argument in
            let real = EncryptingVFS.state(file).real
            return real.pointee.pMethods.pointee.xFileControl(real, operation, argument)
        }
        methods.pointee.xSectorSize = { file in
            let real = EncryptingVFS.state(file).real
            return real.pointee.pMethods.pointee.xSectorSize(real)
        }
        methods.pointee.xDeviceCharacteristics = { file in
            let real = EncryptingVFS.state(file).real
            return real.pointee.pMethods.pointee.xDeviceCharacteristics(real)
        }
        methods.pointee.xShmMap = { file, page, size, extend, out in
            let real = EncryptingVFS.state(file).real
            return real.pointee.pMethods.pointee.xShmMap(real, page, size, extend, out)
        }
        methods.pointee.xShmLock = { file, offset, count, flags in
            let real = EncryptingVFS.state(file).real
            return real.pointee.pMethods.pointee.xShmLock(real, offset, count, flags)
        }
        methods.pointee.xShmBarrier = { file in
            let real = EncryptingVFS.state(file).real
            real.pointee.pMethods.pointee.xShmBarrier(real)
        }
        methods.pointee.xShmUnmap = { file, delete in
            let real = EncryptingVFS.state(file).real
            return real.pointee.pMethods.pointee.xShmUnmap(real, delete)
        }
        return methods
    }()
}
