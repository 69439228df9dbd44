import CheckinServerCommands

await CheckinServerCommand.runProcess()
