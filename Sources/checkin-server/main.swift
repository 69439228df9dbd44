import CheckinServerCommands

await CheckinServerCommand.main()
